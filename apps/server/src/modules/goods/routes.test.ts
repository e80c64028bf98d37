import { CATALOG_CODE, CODE, goodsBodySchema } from '@kaipiao/shared';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, DEMO, demoIds, login } from '../../../test/helper.ts';
import { download, readRows, upload, workbook } from '../../../test/xlsx-helpers.ts';
import { clients, goods, orgs, taxClassCodes } from '../../db/schema/index.ts';
import { HOTEL_GOODS, SOFTWARE_GOODS } from '../../seed/catalog.ts';
import { goodsValues } from './service.ts';
import { TAX_CLASS_SEED } from './tax-class-data.ts';

const SOFTWARE_DEV = '3040201010000000000';
const LODGING = '3070402000000000000';
const PREPAID = '6010000000000000000';

describe('goods codes (/v3/client-project/*, /v3/tax-class-code/*)', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let admin: string;
  let sw: number;
  let hotel: number;
  let otherGoodsId: number;
  const q = (clientId: number, extra = '') => `client_id=${clientId}${extra}`;

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await login(t.app, DEMO.admin.account);
    const ids = await demoIds(t.app, admin);
    sw = ids.software;
    hotel = ids.hotel!;
    // another tenant with a goods item of its own
    const [org] = await t.db.insert(orgs).values({ name: '别家集团' }).returning();
    const [c] = await t.db
      .insert(clients)
      .values({ orgId: org!.id, name: '别家公司', taxCode: '91110000600037341L' })
      .returning();
    const [g] = await t.db
      .insert(goods)
      .values({
        clientId: c!.id,
        name: '别家的商品',
        taxClassCode: SOFTWARE_DEV,
        shortName: '信息技术服务',
        taxRate: '0.06',
      })
      .returning();
    otherGoodsId = g!.id;
  });

  const create = (clientId: number, body: Record<string, unknown>) =>
    call(t.app, 'POST', `/v3/client-project/create?${q(clientId)}`, { token: admin, body });

  describe('classification codes', () => {
    it('seeds the table on start with 19-digit codes and the hotel pair of domain.md §6.2', async () => {
      const rows = await t.db.select().from(taxClassCodes);
      expect(rows.length).toBe(TAX_CLASS_SEED.length);
      expect(rows.every((r) => /^\d{19}$/.test(r.code))).toBe(true);
      expect(rows.find((r) => r.code === LODGING)).toMatchObject({ name: '住宿服务', shortName: '住宿服务' });
    });

    it('the demo goods pass the same checks as the API (code, 简称, rate for the taxpayer type)', async () => {
      const classes = new Map((await t.db.select().from(taxClassCodes)).map((c) => [c.code, c]));
      const seeds = [
        ...SOFTWARE_GOODS.map((g) => ['general', g] as const),
        ...HOTEL_GOODS.map((g) => ['small', g] as const),
      ];
      for (const [type, g] of seeds) {
        const body = goodsBodySchema.parse({
          name: g.name,
          tax_class_code: g.taxClassCode,
          tax_rate: g.taxRate,
        });
        const res = goodsValues(1, type, body, classes.get(g.taxClassCode));
        expect(res.errors, g.name).toEqual([]);
        expect(res.values!.shortName, g.name).toBe(g.shortName);
      }
    });

    it('GET /v3/tax-class-code/search finds by name, 简称, keyword and code prefix, never summary codes', async () => {
      const byName = await call(t.app, 'GET', `/v3/tax-class-code/search?${q(sw, '&keyword=住宿')}`, {
        token: admin,
      });
      expect(byName.json.code).toBe(0);
      expect(byName.json.data[0]).toMatchObject({ code: LODGING, short_name: '住宿服务' });
      const byShort = await call(
        t.app,
        'GET',
        `/v3/tax-class-code/search?${q(sw, '&keyword=信息技术服务')}`,
        {
          token: admin,
        },
      );
      const codes = byShort.json.data.map((c: { code: string }) => c.code);
      expect(codes).toContain(SOFTWARE_DEV);
      expect(codes).not.toContain('3040200000000000000'); // the summary item
      const byPrefix = await call(t.app, 'GET', `/v3/tax-class-code/search?${q(sw, '&keyword=30502')}`, {
        token: admin,
      });
      expect(byPrefix.json.data.map((c: { code: string }) => c.code)).toEqual(['3050200000000000000']);
      const byKeyword = await call(t.app, 'GET', `/v3/tax-class-code/search?${q(sw, '&keyword=停车费')}`, {
        token: admin,
      });
      expect(byKeyword.json.data[0]).toMatchObject({ code: '3040502020200000000', special_business: '06' });
      const wildcard = await call(t.app, 'GET', `/v3/tax-class-code/search?${q(sw, '&keyword=%25')}`, {
        token: admin,
      });
      expect(wildcard.json.data).toEqual([]);
    });
  });

  describe('POST /v3/client-project/tax-rate', () => {
    it('gives a general taxpayer the code rate, 免税 when the code admits it, and 6% as default', async () => {
      const res = await call(t.app, 'POST', `/v3/client-project/tax-rate?${q(sw)}`, {
        token: admin,
        body: { tax_class_code: SOFTWARE_DEV },
      });
      expect(res.json.code).toBe(0);
      expect(res.json.data.taxpayer_type).toBe('general');
      expect(res.json.data.default_rate).toBe('0.06');
      expect(res.json.data.rates.map((r: { label: string }) => r.label)).toEqual(['6%', '免税']);
      expect(res.json.data.preferential_options).toEqual([{ code: '03', label: '免税' }]);
    });

    it('gives a small-scale hotel 1% (reduced until 2027-12-31) and 3% with a reason', async () => {
      const res = await call(t.app, 'POST', `/v3/client-project/tax-rate?${q(hotel)}`, {
        token: admin,
        body: { tax_class_code: LODGING },
      });
      expect(res.json.data.taxpayer_type).toBe('small');
      expect(res.json.data.reduced_rate_end).toBe('2027-12-31');
      expect(res.json.data.default_rate).toBe('0.01');
      const three = res.json.data.rates.find((r: { value: string }) => r.value === '0.03');
      expect(three).toMatchObject({ needs_reason: true });
      expect(res.json.data.rates.some((r: { value: string }) => r.value === '0.06')).toBe(false);
    });

    it('offers only 不征税 for 篇6 codes, the full taxpayer set without a code, and refuses unknown codes', async () => {
      const prepaid = await call(t.app, 'POST', `/v3/client-project/tax-rate?${q(sw)}`, {
        token: admin,
        body: { tax_class_code: PREPAID },
      });
      expect(prepaid.json.data.rates).toEqual([
        { value: '0', label: '不征税', zero_rate_flag: '2', preferential_code: '04', needs_reason: false },
      ]);
      const all = await call(t.app, 'POST', `/v3/client-project/tax-rate?${q(sw)}`, {
        token: admin,
        body: {},
      });
      expect(all.json.data.rates.map((r: { value: string }) => r.value)).toContain('0.13');
      const unknown = await call(t.app, 'POST', `/v3/client-project/tax-rate?${q(sw)}`, {
        token: admin,
        body: { tax_class_code: '1234567890123456789' },
      });
      expect(unknown.json.code).toBe(CATALOG_CODE.TAX_CLASS_NOT_FOUND);
      const bad = await call(t.app, 'POST', `/v3/client-project/tax-rate?${q(sw)}`, {
        token: admin,
        body: { tax_class_code: '123' },
      });
      expect(bad.json).toMatchObject({ code: CODE.VALIDATION, message: '税收分类编码须为19位数字' });
    });
  });

  describe('list, create, update, delete', () => {
    it('GET get-projects pages the seeded goods with *简称*名称, default first', async () => {
      const res = await call(
        t.app,
        'GET',
        `/v3/client-project/get-projects?${q(sw, '&page=1&page_size=10')}`,
        {
          token: admin,
        },
      );
      expect(res.json.code).toBe(0);
      expect(res.json.data.total).toBe(5);
      expect(res.json.data.list[0]).toMatchObject({
        name: '软件开发服务',
        full_name: '*信息技术服务*软件开发服务',
        tax_rate: '0.06',
        tax_rate_label: '6%',
        is_default: true,
        tax_class_name: '软件开发服务',
      });
      const bad = await call(t.app, 'GET', `/v3/client-project/get-projects?${q(sw, '&page_size=15')}`, {
        token: admin,
      });
      expect(bad.json).toMatchObject({ code: CODE.VALIDATION, message: '每页条数只能是10、20或30' });
    });

    it('searches by name, 简称 and classification-code prefix', async () => {
      const get = async (kw: string) =>
        (
          await call(
            t.app,
            'GET',
            `/v3/client-project/get-projects?${q(sw, `&keyword=${encodeURIComponent(kw)}`)}`,
            {
              token: admin,
            },
          )
        ).json.data;
      expect((await get('维护')).list.map((g: { name: string }) => g.name)).toEqual(['软件维护服务']);
      expect((await get('研发和技术')).list.map((g: { name: string }) => g.name)).toEqual(['技术咨询服务']);
      expect((await get('3040203')).list.map((g: { name: string }) => g.name)).toEqual(['信息系统集成服务']);
    });

    it('GET default-project returns the default item', async () => {
      const res = await call(t.app, 'GET', `/v3/client-project/default-project?${q(hotel)}`, {
        token: admin,
      });
      expect(res.json.data).toMatchObject({
        name: '住宿费',
        tax_rate: '0.01',
        price: '388',
        full_name: '*住宿服务*住宿费',
      });
    });

    it('creates an item with the 简称 of its code, and a new default replaces the old one', async () => {
      const res = await create(sw, {
        name: '小程序开发',
        tax_class_code: SOFTWARE_DEV,
        spec: 'V2',
        unit: '项',
        price: '10600.00',
        price_includes_tax: true,
        tax_rate: '6%',
        is_default: true,
      });
      expect(res.json.code).toBe(0);
      expect(res.json.data).toMatchObject({
        short_name: '信息技术服务',
        full_name: '*信息技术服务*小程序开发',
        price: '10600',
        tax_rate: '0.06',
        is_default: true,
      });
      const def = await call(t.app, 'GET', `/v3/client-project/default-project?${q(sw)}`, { token: admin });
      expect(def.json.data.id).toBe(res.json.data.id);
      const defaults = await t.db.select().from(goods).where(eq(goods.isDefault, true));
      expect(defaults.filter((d) => d.clientId === sw)).toHaveLength(1);
    });

    it('derives the zero-rate flag: 免税 with 03, 不征税 for prepaid cards', async () => {
      const exempt = await create(sw, {
        name: '技术开发（免税）',
        tax_class_code: SOFTWARE_DEV,
        tax_rate: '0',
        preferential_code: '03',
      });
      expect(exempt.json.data).toMatchObject({ zero_rate_flag: '1', tax_rate_label: '免税' });
      const card = await create(sw, {
        name: '储值卡充值',
        tax_class_code: PREPAID,
        tax_rate: '0',
        preferential_code: '04',
      });
      expect(card.json.data).toMatchObject({ zero_rate_flag: '2', tax_rate_label: '不征税' });
    });

    it('refuses bad input with 10001 and the field named', async () => {
      const empty = await create(sw, { name: ' ', tax_class_code: '', tax_rate: '' });
      expect(empty.json.code).toBe(CODE.VALIDATION);
      const fields = empty.json.data.errors.map((e: { field: string; message: string }) => [
        e.field,
        e.message,
      ]);
      expect(fields).toEqual(
        expect.arrayContaining([
          ['name', '请输入项目名称'],
          ['tax_class_code', '请选择税收分类编码'],
          ['tax_rate', '请选择税率'],
        ]),
      );
      const price = await create(sw, {
        name: 'x',
        tax_class_code: SOFTWARE_DEV,
        tax_rate: '0.06',
        price: '-1',
      });
      expect(price.json.data.errors).toEqual([
        { field: 'price', message: '单价须为大于0的数字，最多8位小数' },
      ]);
      const rate = await create(sw, { name: 'x', tax_class_code: SOFTWARE_DEV, tax_rate: '0.13' });
      expect(rate.json).toMatchObject({
        code: CODE.VALIDATION,
        data: { errors: [{ field: 'tax_rate', message: '该税收分类编码不支持所选税率' }] },
      });
      const smallRate = await create(hotel, { name: 'x', tax_class_code: LODGING, tax_rate: '0.06' });
      expect(smallRate.json.data.errors[0].field).toBe('tax_rate');
      const summary = await create(sw, {
        name: 'x',
        tax_class_code: '3040200000000000000',
        tax_rate: '0.06',
      });
      expect(summary.json.data.errors).toEqual([
        { field: 'tax_class_code', message: '汇总项编码不能用于开票，请选择其下级编码' },
      ]);
      const unknown = await create(sw, {
        name: 'x',
        tax_class_code: '1234567890123456789',
        tax_rate: '0.06',
      });
      expect(unknown.json.data.errors[0].field).toBe('tax_class_code');
      const prepaid = await create(sw, {
        name: 'x',
        tax_class_code: PREPAID,
        tax_rate: '0',
        preferential_code: '03',
      });
      expect(prepaid.json.code).toBe(CODE.VALIDATION);
      const policy = await create(sw, {
        name: 'x',
        tax_class_code: SOFTWARE_DEV,
        tax_rate: '0.06',
        preferential_code: '10',
      });
      expect(policy.json.data.errors).toEqual([
        { field: 'preferential_code', message: '该税收分类编码不支持所选优惠政策' },
      ]);
    });

    it('refuses a second item with the same name and spec', async () => {
      const res = await create(sw, { name: '软件开发服务', tax_class_code: SOFTWARE_DEV, tax_rate: '0.06' });
      expect(res.json).toMatchObject({
        code: CATALOG_CODE.GOODS_DUPLICATE,
        data: { errors: [{ field: 'name', message: '已存在相同名称和规格型号的商品' }] },
      });
      const otherSpec = await create(sw, {
        name: '软件开发服务',
        spec: '加急',
        tax_class_code: SOFTWARE_DEV,
        tax_rate: '0.06',
      });
      expect(otherSpec.json.code).toBe(0);
    });

    it('updates and deletes its own items, and sets the default', async () => {
      const created = await create(sw, { name: '待修改', tax_class_code: SOFTWARE_DEV, tax_rate: '0.06' });
      const id = created.json.data.id;
      const upd = await call(t.app, 'POST', `/v3/client-project/update?${q(sw)}`, {
        token: admin,
        body: { id, name: '已修改', tax_class_code: LODGING, tax_rate: '0.06', unit: '间', price: '' },
      });
      expect(upd.json.data).toMatchObject({
        name: '已修改',
        short_name: '住宿服务',
        unit: '间',
        price: null,
      });
      const def = await call(t.app, 'POST', `/v3/client-project/set-default?${q(sw)}`, {
        token: admin,
        body: { id },
      });
      expect(def.json.code).toBe(0);
      expect(
        (await call(t.app, 'GET', `/v3/client-project/default-project?${q(sw)}`, { token: admin })).json.data
          .id,
      ).toBe(id);
      const del = await call(t.app, 'POST', `/v3/client-project/delete?${q(sw)}`, {
        token: admin,
        body: { ids: [id] },
      });
      expect(del.json.data).toEqual({ deleted: 1 });
      const again = await call(t.app, 'POST', `/v3/client-project/delete?${q(sw)}`, {
        token: admin,
        body: { ids: [id] },
      });
      expect(again.json.code).toBe(CATALOG_CODE.GOODS_NOT_FOUND);
    });
  });

  describe('tenant isolation', () => {
    it('never shows, changes or deletes another business’s item', async () => {
      const list = await call(t.app, 'GET', `/v3/client-project/get-projects?${q(sw, '&keyword=别家')}`, {
        token: admin,
      });
      expect(list.json.data.total).toBe(0);
      const upd = await call(t.app, 'POST', `/v3/client-project/update?${q(sw)}`, {
        token: admin,
        body: { id: otherGoodsId, name: '改掉', tax_class_code: SOFTWARE_DEV, tax_rate: '0.06' },
      });
      expect(upd.json.code).toBe(CATALOG_CODE.GOODS_NOT_FOUND);
      const del = await call(t.app, 'POST', `/v3/client-project/delete?${q(sw)}`, {
        token: admin,
        body: { ids: [otherGoodsId] },
      });
      expect(del.json.code).toBe(CATALOG_CODE.GOODS_NOT_FOUND);
      const setDefault = await call(t.app, 'POST', `/v3/client-project/set-default?${q(sw)}`, {
        token: admin,
        body: { id: otherGoodsId },
      });
      expect(setDefault.json.code).toBe(CATALOG_CODE.GOODS_NOT_FOUND);
      const [still] = await t.db.select().from(goods).where(eq(goods.id, otherGoodsId));
      expect(still).toMatchObject({ name: '别家的商品', isDefault: false });
    });

    it('refuses the other business’s client_id and calls without one', async () => {
      const [other] = await t.db.select().from(clients).where(eq(clients.name, '别家公司'));
      const res = await call(t.app, 'GET', `/v3/client-project/get-projects?${q(other!.id)}`, {
        token: admin,
      });
      expect(res.json.code).not.toBe(0);
      const none = await call(t.app, 'GET', '/v3/client-project/get-projects', { token: admin });
      expect(none.json.code).toBe(CODE.SWITCH_STORE);
      const anon = await call(t.app, 'GET', `/v3/client-project/get-projects?${q(sw)}`);
      expect(anon.json.code).toBe(CODE.UNAUTHORIZED);
    });
  });

  describe('Excel', () => {
    it('GET template has the import headers and an instructions sheet', async () => {
      const res = await download(t.app, `/v3/client-project/template?${q(sw)}`, admin);
      expect(res.headers['content-type']).toContain('spreadsheetml');
      expect(String(res.headers['content-disposition'])).toContain("filename*=UTF-8''");
      const [header] = await readRows(res.body);
      expect(header).toEqual([
        '项目名称*',
        '税收分类编码*',
        '规格型号',
        '单位',
        '单价',
        '单价含税',
        '税率*',
        '优惠政策',
        '默认商品',
      ]);
    });

    it('exports the goods and imports the file back unchanged (round trip)', async () => {
      const exported = await download(t.app, `/v3/client-project/export?${q(hotel)}`, admin);
      expect(exported.status).toBe(200);
      const rows = await readRows(exported.body);
      expect(rows[0]![0]).toBe('项目名称*');
      expect(rows.slice(1).map((r) => r[0])).toEqual(['住宿费', '餐费', '会议室租赁', '停车费']);
      expect(rows[1]).toContain('*住宿服务*住宿费');
      // lose one item, then import the export: it comes back, the others are updated in place
      const meal = (
        await call(t.app, 'GET', `/v3/client-project/get-projects?${q(hotel, '&keyword=餐费')}`, {
          token: admin,
        })
      ).json.data.list[0];
      await call(t.app, 'POST', `/v3/client-project/delete?${q(hotel)}`, {
        token: admin,
        body: { ids: [meal.id] },
      });
      const res = await upload(t.app, `/v3/client-project/import?${q(hotel)}`, admin, {
        filename: 'goods.xlsx',
        content: exported.body,
      });
      expect(res.json).toMatchObject({ code: 0, data: { total: 4, created: 1, updated: 3 } });
      const again = await download(t.app, `/v3/client-project/export?${q(hotel)}`, admin);
      const sorted = (r: string[][]) => [...r].sort((a, b) => a[0]!.localeCompare(b[0]!));
      expect(sorted(await readRows(again.body))).toEqual(sorted(rows));
      const def = await call(t.app, 'GET', `/v3/client-project/default-project?${q(hotel)}`, {
        token: admin,
      });
      expect(def.json.data.name).toBe('住宿费');
    });

    it('imports new rows with 6%, 免税 and whole-number rates', async () => {
      const file = await workbook([
        ['项目名称', '税收分类编码', '单位', '单价', '单价含税', '税率', '优惠政策'],
        ['数据处理服务', '3040203000000000000', '次', 100, '否', '6%', ''],
        ['委托研发', '3040101000000000000', '项', null, '是', '免税', ''],
        ['年度运维', '3040201030000000000', '年', '8000', '', 6, ''],
      ]);
      const res = await upload(t.app, `/v3/client-project/import?${q(sw)}`, admin, {
        filename: 'new.xlsx',
        content: file,
      });
      expect(res.json).toMatchObject({ code: 0, data: { total: 3, created: 3, updated: 0 } });
      const found = await call(
        t.app,
        'GET',
        `/v3/client-project/get-projects?${q(sw, '&keyword=委托研发')}`,
        {
          token: admin,
        },
      );
      expect(found.json.data.list[0]).toMatchObject({
        tax_rate: '0',
        zero_rate_flag: '1',
        preferential_code: '03',
      });
    });

    it('writes nothing when any row is wrong and names row, column and problem in Chinese', async () => {
      const before = (await call(t.app, 'GET', `/v3/client-project/get-projects?${q(sw)}`, { token: admin }))
        .json.data.total;
      const file = await workbook([
        ['项目名称*', '税收分类编码*', '税率*', '单价含税', '默认商品'],
        ['好的一行', '3040203000000000000', '6%', '是', ''],
        ['', '3040203000000000000', '6%', '是', ''],
        ['税率错', '3040203000000000000', '13%', '是', ''],
        ['编码错', '123', '6%', '也许', ''],
        ['好的一行', '3040203000000000000', '6%', '是', ''],
        ['公式', '=A1', '6%', '是', ''],
      ]);
      const res = await upload(t.app, `/v3/client-project/import?${q(sw)}`, admin, {
        filename: 'bad.xlsx',
        content: file,
      });
      expect(res.json.code).toBe(CATALOG_CODE.IMPORT_ROWS_INVALID);
      expect(res.json.message).toContain('未导入任何数据');
      expect(res.json.data.errors).toEqual(
        expect.arrayContaining([
          { row: 3, column: '项目名称', message: '请输入项目名称' },
          { row: 4, column: '税率', message: '该税收分类编码不支持所选税率' },
          { row: 5, column: '单价含税', message: '单价含税请填写“是”或“否”' },
          { row: 5, column: '税收分类编码', message: '税收分类编码须为19位数字' },
          { row: 6, column: '项目名称', message: '与第2行的项目名称和规格型号重复' },
          { row: 7, column: '税收分类编码', message: '单元格含有公式，请复制后“选择性粘贴为数值”再导入' },
        ]),
      );
      const after = (await call(t.app, 'GET', `/v3/client-project/get-projects?${q(sw)}`, { token: admin }))
        .json.data.total;
      expect(after).toBe(before);
    });

    it('refuses files that are not .xlsx, empty sheets, wrong headers, too many rows and no file', async () => {
      const url = `/v3/client-project/import?${q(sw)}`;
      const csv = await upload(t.app, url, admin, {
        filename: 'a.csv',
        content: 'name,code\n',
        type: 'text/csv',
      });
      expect(csv.json).toMatchObject({
        code: CATALOG_CODE.IMPORT_NOT_EXCEL,
        message: '请上传 .xlsx 格式的 Excel 文件',
      });
      const xls = await upload(t.app, url, admin, {
        filename: 'old.xls',
        content: Buffer.from('d0cf11e0a1b11ae1000000', 'hex'),
      });
      expect(xls.json.message).toBe('不支持 .xls 旧格式，请在 Excel 中另存为 .xlsx 后再导入');
      const corrupt = await upload(t.app, url, admin, {
        filename: 'broken.xlsx',
        content: Buffer.concat([Buffer.from('504b0304', 'hex'), Buffer.from('not really a zip')]),
      });
      expect(corrupt.json.code).toBe(CATALOG_CODE.IMPORT_NOT_EXCEL);
      expect(corrupt.json.message).toContain('文件已损坏');
      const empty = await upload(t.app, url, admin, {
        filename: 'empty.xlsx',
        content: await workbook([['项目名称', '税收分类编码', '税率']]),
      });
      expect(empty.json.code).toBe(CATALOG_CODE.IMPORT_EMPTY);
      const header = await upload(t.app, url, admin, {
        filename: 'h.xlsx',
        content: await workbook([
          ['名字', '编码'],
          ['a', 'b'],
        ]),
      });
      expect(header.json).toMatchObject({ code: CATALOG_CODE.IMPORT_BAD_HEADER });
      expect(header.json.message).toContain('项目名称');
      const many = await workbook([
        ['项目名称', '税收分类编码', '税率'],
        ...Array.from({ length: 5001 }, (_, i) => [`商品${i}`, SOFTWARE_DEV, '6%']),
      ]);
      const tooMany = await upload(t.app, url, admin, { filename: 'many.xlsx', content: many });
      expect(tooMany.json.code).toBe(CATALOG_CODE.IMPORT_TOO_MANY_ROWS);
      expect(tooMany.json.message).toContain('5001');
      const noFile = await call(t.app, 'POST', url, { token: admin, body: {} });
      expect(noFile.json.code).toBe(CATALOG_CODE.IMPORT_NO_FILE);
    });

    it('flags 19-digit codes Excel stored as numbers', async () => {
      const file = await workbook([
        ['项目名称', '税收分类编码', '税率'],
        ['数字编码', 3040203000000000000, '6%'],
      ]);
      const res = await upload(t.app, `/v3/client-project/import?${q(sw)}`, admin, {
        filename: 'n.xlsx',
        content: file,
      });
      expect(res.json.code).toBe(CATALOG_CODE.IMPORT_ROWS_INVALID);
      expect(res.json.data.errors[0]).toMatchObject({ row: 2, column: '税收分类编码' });
      expect(res.json.data.errors[0].message).toContain('文本');
    });
  });
});
