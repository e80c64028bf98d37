/**
 * The classification codes (商品和服务税收分类编码) the console ships with (domain.md §6). No openly
 * licensed full table exists (§6.3), so this is a curated set for the businesses we serve (software,
 * hotels, property, transport, construction). Upserted into `tax_class_codes` on start.
 *
 * Confidence: "§6.2" = listed in domain.md §6.2 with its sources; "seen" = the code/name pair appears
 * in public invoicing code we checked; UNVERIFIED = inferred (e.g. from the order of the
 * 财税〔2016〕36号 annex the table follows) and not confirmed in a source — replace from the bureau's
 * table (Leqi CXSSFLBM) before production.
 *
 * rates = 税率 under the general method; levyRates = 征收率 (simplified method / small-scale);
 * preferential = 数电 优惠政策标识 offered for the code (a subset of the bureau's 增值税特殊管理).
 */
export type TaxClassSeed = {
  code: string;
  name: string;
  shortName: string;
  rates: string[];
  levyRates: string[];
  preferential: string[];
  isSummary?: boolean;
  specialBusiness?: '03' | '04' | '06' | '09';
  keywords?: string;
};

// common shapes: modern/life services 6% (small-scale 3%), transport/construction/property 9%
const SVC6 = { rates: ['0.06'], levyRates: ['0.03'], preferential: ['03'] };
const SVC9 = { rates: ['0.09'], levyRates: ['0.03'], preferential: ['01', '03'] };
const RENT = {
  rates: ['0.09'],
  levyRates: ['0.05'],
  preferential: ['01', '03'],
  specialBusiness: '06' as const,
};

export const TAX_CLASS_SEED: readonly TaxClassSeed[] = [
  // 生活服务 — 餐饮住宿 (§6.2; the hotel pair)
  {
    code: '3070401000000000000',
    name: '餐饮服务',
    shortName: '餐饮服务',
    ...SVC6,
    keywords: '餐费 餐饮费 饭费 早餐 酒水 外卖 宴会',
  },
  {
    code: '3070402000000000000',
    name: '住宿服务',
    shortName: '住宿服务',
    ...SVC6,
    keywords: '住宿费 房费 客房 酒店 宾馆 民宿',
  },
  // §6.2 (code and name); 简称 UNVERIFIED
  {
    code: '3070302000000000000',
    name: '娱乐服务',
    shortName: '娱乐服务',
    ...SVC6,
    keywords: 'KTV 歌舞厅 游艺 棋牌',
  },
  // §6.2: summary item
  { code: '3070500000000000000', name: '居民日常服务', shortName: '居民日常服务', ...SVC6, isSummary: true },

  // 现代服务 — 信息技术服务 (§6.2; 3040200… as 信息技术服务 seen)
  { code: '3040200000000000000', name: '信息技术服务', shortName: '信息技术服务', ...SVC6, isSummary: true },
  {
    code: '3040201010000000000',
    name: '软件开发服务',
    shortName: '信息技术服务',
    ...SVC6,
    keywords: '软件开发 定制开发 系统开发 APP开发 小程序开发 技术开发',
  },
  {
    code: '3040201030000000000',
    name: '软件维护服务',
    shortName: '信息技术服务',
    ...SVC6,
    keywords: '软件维护 运维 技术支持 系统升级 维保',
  },
  // code seen as "软件服务费" in public lists; name UNVERIFIED
  {
    code: '3040201990000000000',
    name: '其他软件服务',
    shortName: '信息技术服务',
    ...SVC6,
    keywords: '软件服务费 软件使用费 授权服务',
  },
  {
    code: '3040203000000000000',
    name: '信息系统服务',
    shortName: '信息技术服务',
    ...SVC6,
    keywords: '系统集成 信息系统集成 网络集成 数据处理 托管 云服务',
  },
  // UNVERIFIED (annex order: 软件服务, 电路设计及测试, 信息系统服务, 业务流程管理, 信息系统增值服务)
  {
    code: '3040205000000000000',
    name: '信息系统增值服务',
    shortName: '信息技术服务',
    ...SVC6,
    keywords: '数据处理 云计算 SaaS 在线服务',
  },

  // 现代服务 — 研发和技术服务: 3040101 研发服务 seen; 简称 UNVERIFIED
  {
    code: '3040101000000000000',
    name: '研发服务',
    shortName: '研发和技术服务',
    ...SVC6,
    keywords: '研发 技术开发 委托研发 试验',
  },
  // §6.2 "per one preset list", also seen as 技术咨询服务 in public code; official name UNVERIFIED
  {
    code: '3040102000000000000',
    name: '技术咨询服务',
    shortName: '研发和技术服务',
    ...SVC6,
    keywords: '技术咨询 技术服务费 咨询费 技术服务',
  },
  // UNVERIFIED (鉴证咨询服务: 认证, 鉴证, 咨询); code seen with 6% in public code
  {
    code: '3040603000000000000',
    name: '咨询服务',
    shortName: '鉴证咨询服务',
    ...SVC6,
    keywords: '咨询费 管理咨询 顾问费 信息咨询',
  },
  // UNVERIFIED code and 简称 (文化创意服务: 设计, 知识产权, 广告, 会议展览). Hotels' meeting rooms with
  // services are taxed as 会议展览服务 (财税〔2016〕140号 第十条).
  {
    code: '3040304000000000000',
    name: '会议展览服务',
    shortName: '会展服务',
    ...SVC6,
    keywords: '会议费 会务费 会议室 场地 展览 会展',
  },

  // 现代服务 — 商务辅助 / 经纪代理 (§6.2)
  // 简称 UNVERIFIED
  {
    code: '3040801010000000000',
    name: '物业管理服务',
    shortName: '物业管理服务',
    ...SVC6,
    keywords: '物业费 物业管理',
  },
  // 简称 UNVERIFIED; 差额 5% also exists for this code
  {
    code: '3040803010000000000',
    name: '劳务派遣服务',
    shortName: '人力资源服务',
    rates: ['0.06'],
    levyRates: ['0.05', '0.03'],
    preferential: ['01', '03'],
    keywords: '劳务派遣 派遣 人力',
  },
  {
    code: '3040802010100000000',
    name: '国内货物运输代理服务',
    shortName: '经纪代理服务',
    ...SVC6,
    keywords: '货代 运输代理 代理费',
  },
  {
    code: '3040802010200000000',
    name: '国际货物运输代理服务',
    shortName: '经纪代理服务',
    ...SVC6,
    keywords: '国际货代 运输代理 代理费',
  },

  // 现代服务 — 不动产经营租赁 (06) (§6.2; 3040502020000000000 seen as 不动产经营租赁)
  {
    code: '3040502020000000000',
    name: '不动产经营租赁服务',
    shortName: '不动产经营租赁',
    ...RENT,
    isSummary: true,
  },
  {
    code: '3040502020101000000',
    name: '公共住房租赁',
    shortName: '不动产经营租赁',
    ...RENT,
    keywords: '公租房 房租 住房租赁',
  },
  {
    code: '3040502020199000000',
    name: '其他住房租赁',
    shortName: '不动产经营租赁',
    ...RENT,
    keywords: '房租 住房租赁 公寓 租金',
  },
  {
    code: '3040502020400000000',
    name: '商业营业用房经营租赁',
    shortName: '不动产经营租赁',
    ...RENT,
    keywords: '商铺 写字楼 办公室 租金 房租',
  },
  {
    code: '3040502029902000000',
    name: '其他情形不动产经营租赁',
    shortName: '不动产经营租赁',
    ...RENT,
    keywords: '场地租赁 租金',
  },
  {
    code: '3040502020200000000',
    name: '车辆停放服务',
    shortName: '不动产经营租赁',
    ...RENT,
    keywords: '停车费 停车 车位 泊车',
  },
  // only 个体工商户/自然人, only with 10 (5% 减按 1.5%) (domain.md §4.3)
  {
    code: '3040502020102000000',
    name: '个人出租住房',
    shortName: '不动产经营租赁',
    rates: ['0.015'],
    levyRates: ['0.015'],
    preferential: ['10'],
    specialBusiness: '06',
    keywords: '个人出租 房租',
  },

  // 建筑服务 (03): 305 by elimination (301-304, 306, 307 seen); 3050200 seen as 安装服务; the others
  // UNVERIFIED from the annex order 工程, 安装, 修缮, 装饰, 其他建筑服务
  {
    code: '3050000000000000000',
    name: '建筑服务',
    shortName: '建筑服务',
    ...SVC9,
    specialBusiness: '03',
    isSummary: true,
  },
  {
    code: '3050100000000000000',
    name: '工程服务',
    shortName: '建筑服务',
    ...SVC9,
    specialBusiness: '03',
    keywords: '工程款 施工 建筑工程 土建',
  },
  {
    code: '3050200000000000000',
    name: '安装服务',
    shortName: '建筑服务',
    ...SVC9,
    specialBusiness: '03',
    keywords: '安装费 设备安装 布线',
  },
  {
    code: '3050300000000000000',
    name: '修缮服务',
    shortName: '建筑服务',
    ...SVC9,
    specialBusiness: '03',
    keywords: '维修 修缮 修补 加固',
  },
  {
    code: '3050400000000000000',
    name: '装饰服务',
    shortName: '建筑服务',
    ...SVC9,
    specialBusiness: '03',
    keywords: '装修 装饰 装潢',
  },
  {
    code: '3050500000000000000',
    name: '其他建筑服务',
    shortName: '建筑服务',
    ...SVC9,
    specialBusiness: '03',
    keywords: '钻井 拆除 平整土地 园林绿化',
  },

  // 交通运输服务: goods transport (04) and passenger transport (09). The code/name pairs come from
  // one public copy of the table plus domain.md §6.2; 简称 运输服务 seen on 国内道路货物运输服务.
  {
    code: '3010102000000000000',
    name: '陆路货物运输服务',
    shortName: '运输服务',
    ...SVC9,
    specialBusiness: '04',
    isSummary: true,
  },
  {
    code: '3010102020100000000',
    name: '国内道路货物运输服务',
    shortName: '运输服务',
    ...SVC9,
    specialBusiness: '04',
    keywords: '运费 物流费 货运 公路运输 整车运输',
  },
  {
    code: '3010102010100000000',
    name: '国内铁路货物运输服务',
    shortName: '运输服务',
    ...SVC9,
    specialBusiness: '04',
    keywords: '铁路运费 铁路货运',
  },
  {
    code: '3010101000000000000',
    name: '陆路旅客运输服务',
    shortName: '运输服务',
    ...SVC9,
    specialBusiness: '09',
    isSummary: true,
  },
  {
    code: '3010101020101010000',
    name: '国内长途汽车旅客运输服务',
    shortName: '运输服务',
    ...SVC9,
    specialBusiness: '09',
    keywords: '客运 长途汽车 大巴 班车',
  },
  {
    code: '3010101020201000000',
    name: '公共电汽车客运服务',
    shortName: '运输服务',
    ...SVC9,
    specialBusiness: '09',
    keywords: '公交 客运',
  },
  {
    code: '3010101020203000000',
    name: '出租汽车客运服务',
    shortName: '运输服务',
    ...SVC9,
    specialBusiness: '09',
    keywords: '出租车 打车 客运服务费',
  },
  // air passengers have their own e-ticket kind; not offered for 09 (domain.md §4.4)
  {
    code: '3010301010100000000',
    name: '国内航空旅客运输服务',
    shortName: '运输服务',
    ...SVC9,
    keywords: '机票 航空客运',
  },

  // 电信服务 (§6.2: summary 3030000…; 3030101 语音通话服务 from the same public copy)
  {
    code: '3030000000000000000',
    name: '电信服务',
    shortName: '电信服务',
    rates: ['0.09', '0.06'],
    levyRates: ['0.03'],
    preferential: ['03'],
    isSummary: true,
  },
  {
    code: '3030101000000000000',
    name: '语音通话服务',
    shortName: '电信服务',
    ...SVC9,
    keywords: '话费 通话费 通信费',
  },

  // goods (§6.2)
  {
    code: '1100301010000000000',
    name: '自来水',
    shortName: '水冰雪',
    rates: ['0.09'],
    levyRates: ['0.03'],
    preferential: ['01', '03'],
    keywords: '水费 自来水',
  },
  {
    code: '1030107010100000000',
    name: '猪肉',
    shortName: '肉类',
    rates: ['0.09'],
    levyRates: ['0.03'],
    preferential: ['03'],
    keywords: '猪肉 生鲜',
  },
  {
    code: '1090413010300000000',
    name: '原电池',
    shortName: '原电池',
    rates: ['0.13'],
    levyRates: ['0.03'],
    preferential: [],
    keywords: '电池',
  },
  {
    code: '1090312010000000000',
    name: '摩托车',
    shortName: '机动车',
    rates: ['0.13'],
    levyRates: ['0.03'],
    preferential: [],
    keywords: '摩托车',
  },
  // name from one public copy of the table; 简称 UNVERIFIED. 软件产品: 超税负3%即征即退 (15)
  {
    code: '1060301010100000000',
    name: '系统软件产品',
    shortName: '软件',
    rates: ['0.13'],
    levyRates: ['0.03'],
    preferential: ['15'],
    keywords: '软件产品 软件许可 操作系统 软件销售',
  },

  // 销售不动产 (§6.2 range; name from one public copy)
  {
    code: '5010101000000000000',
    name: '房地产开发住宅',
    shortName: '不动产',
    rates: ['0.09'],
    levyRates: ['0.05'],
    preferential: ['01', '03'],
    keywords: '商品房 住宅销售 房款',
  },

  // 未发生销售行为的不征税项目: always 0 + 04 不征税 (§2.5); 简称 UNVERIFIED
  {
    code: '6010000000000000000',
    name: '预付卡销售和充值',
    shortName: '预付卡销售',
    rates: ['0'],
    levyRates: ['0'],
    preferential: ['04'],
    keywords: '储值卡 充值 会员卡 预付卡 购物卡',
  },
];
