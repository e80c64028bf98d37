import { CATALOG_CODE, CODE, isValidUscc } from '@kaipiao/shared';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, DEMO, demoIds, login } from '../../../test/helper.ts';
import { download, readRows, upload, workbook } from '../../../test/xlsx-helpers.ts';
import { authorityRules, buyerTitles, clients, orgs } from '../../db/schema/index.ts';
import { SOFTWARE_TITLES } from '../../seed/catalog.ts';
import { recordTitleUse } from './service.ts';

const VALID = '91110000600037341L'; // domain.md §5.1 worked example

describe('buyer titles (/v3/client-title/*, /v3/client/get-info-by-tax-code)', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let admin: string;
  let sw: number;
  let hotel: number;
  let otherTitleId: number;
  const q = (clientId: number, extra = '') => `client_id=${clientId}${extra}`;
  const create = (body: Record<string, unknown>, clientId = sw) =>
    call(t.app, 'POST', `/v3/client-title/create?${q(clientId)}`, { token: admin, body });

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await login(t.app, DEMO.admin.account);
    const ids = await demoIds(t.app, admin);
    sw = ids.software;
    hotel = ids.hotel!;
    const [org] = await t.db.insert(orgs).values({ name: '别家集团' }).returning();
    const [c] = await t.db
      .insert(clients)
      .values({ orgId: org!.id, name: '别家公司', taxCode: VALID, industry: 'general' })
      .returning();
    const [title] = await t.db
      .insert(buyerTitles)
      .values({ clientId: c!.id, titleType: 2, name: '别家的客户', taxCode: '91310115MA1K3BTP2B' })
      .returning();
    otherTitleId = title!.id;
  });

  it('seeds about ten demo titles whose USCC codes pass the checksum', async () => {
    const rows = await t.db.select().from(buyerTitles).where(eq(buyerTitles.clientId, sw));
    expect(rows.length).toBe(SOFTWARE_TITLES.length);
    for (const r of rows.filter((x) => x.taxCode)) expect(isValidUscc(r.taxCode), r.taxCode).toBe(true);
    expect(rows.filter((r) => r.titleType === 1 && !r.taxCode).length).toBeGreaterThanOrEqual(3);
  });

  describe('list and search', () => {
    it('GET list pages and filters by name, tax-code prefix and type', async () => {
      const all = await call(t.app, 'GET', `/v3/client-title/list?${q(sw, '&page=1&page_size=20')}`, {
        token: admin,
      });
      expect(all.json.code).toBe(0);
      expect(all.json.data.total).toBe(SOFTWARE_TITLES.length);
      const page2 = await call(t.app, 'GET', `/v3/client-title/list?${q(sw, '&page=2&page_size=10')}`, {
        token: admin,
      });
      expect(page2.json.data.list).toHaveLength(0);
      const people = await call(t.app, 'GET', `/v3/client-title/list?${q(sw, '&title_type=1')}`, {
        token: admin,
      });
      expect(people.json.data.list.every((x: { title_type: number }) => x.title_type === 1)).toBe(true);
      const byName = await call(
        t.app,
        'GET',
        `/v3/client-title/list?${q(sw, `&keyword=${encodeURIComponent('云帆')}`)}`,
        {
          token: admin,
        },
      );
      expect(byName.json.data.list.map((x: { name: string }) => x.name)).toEqual([
        '上海云帆信息技术有限公司',
      ]);
      const taxCode = byName.json.data.list[0].tax_code as string;
      const byCode = await call(
        t.app,
        'GET',
        `/v3/client-title/list?${q(sw, `&keyword=${taxCode.slice(0, 10)}`)}`,
        {
          token: admin,
        },
      );
      expect(byCode.json.data.list[0].tax_code).toBe(taxCode);
    });

    it('GET search puts name prefixes first, then the most used, at most 10', async () => {
      await create({ title_type: 2, name: '某某杭州分公司', tax_code: '91320214745555318W' });
      const res = await call(
        t.app,
        'GET',
        `/v3/client-title/search?${q(sw, `&keyword=${encodeURIComponent('杭州')}`)}`,
        {
          token: admin,
        },
      );
      expect(res.json.data.map((x: { name: string }) => x.name)).toEqual([
        '杭州数澜网络科技有限公司',
        '某某杭州分公司',
      ]);
      const top = await call(t.app, 'GET', `/v3/client-title/search?${q(sw)}`, { token: admin });
      expect(top.json.data.length).toBeLessThanOrEqual(10);
      expect(top.json.data[0].name).toBe('杭州数澜网络科技有限公司'); // used 12 times
      const counts = top.json.data.map((x: { use_count: number }) => x.use_count);
      expect(counts).toEqual([...counts].sort((a, b) => b - a));
    });

    it('recordTitleUse counts uses so the title climbs in the autocomplete', async () => {
      const [wang] = await t.db.select().from(buyerTitles).where(eq(buyerTitles.name, '王芳'));
      for (let i = 0; i < 20; i++) await recordTitleUse(t.db, sw, { title_type: 1, name: '王芳' });
      const top = await call(t.app, 'GET', `/v3/client-title/search?${q(sw)}`, { token: admin });
      expect(top.json.data[0]).toMatchObject({ id: wang!.id, use_count: 20 });
      expect(top.json.data[0].last_used_at).not.toBeNull();
      expect(await recordTitleUse(t.db, sw, { title_type: 1, name: '从未保存' })).toBeNull();
      const saved = await recordTitleUse(
        t.db,
        sw,
        { title_type: 2, name: '新买家有限公司', tax_code: VALID },
        {
          save: true,
        },
      );
      expect(saved).toBeTypeOf('number');
    });
  });

  describe('create, update, delete and validation', () => {
    it('creates an enterprise title with every field, upper-casing the tax code', async () => {
      const res = await create({
        title_type: 2,
        name: '杭州测试科技有限公司',
        tax_code: '91110000600037341l',
        address: '杭州市西湖区文三路1号',
        phone: '0571-88886666',
        bank_name: '招商银行杭州分行',
        bank_account: '6222021234567890123',
        email: 'ap@test.example.com',
        mobile: '13800000009',
      });
      expect(res.json.code).toBe(0);
      expect(res.json.data).toMatchObject({ tax_code: VALID, title_type: 2, use_count: 0 });
    });

    it('lets a personal title go without a tax code but not an enterprise one', async () => {
      expect((await create({ title_type: 1, name: '赵六' })).json.code).toBe(0);
      const ent = await create({ title_type: 2, name: '无税号公司' });
      expect(ent.json).toMatchObject({
        code: CODE.VALIDATION,
        message: '企业抬头请填写纳税人识别号',
        data: { errors: [{ field: 'tax_code', message: '企业抬头请填写纳税人识别号' }] },
      });
    });

    it('checks the spec §5 patterns and the USCC checksum with Chinese messages', async () => {
      const res = await create({
        title_type: 2,
        name: '',
        tax_code: '91110000600037341N',
        phone: 'abc',
        bank_account: '6222-0212',
        email: 'clerk@',
        mobile: '2380000000',
      });
      expect(res.json.code).toBe(CODE.VALIDATION);
      const errors = Object.fromEntries(
        res.json.data.errors.map((e: { field: string; message: string }) => [e.field, e.message]),
      );
      expect(errors).toEqual({
        name: '请输入抬头名称',
        tax_code: '统一社会信用代码校验位不正确，请核对',
        phone: '请输入正确的电话号码（7-20位数字或“-”）',
        bank_account: '银行账号须为1-30位数字',
        email: '请输入正确的邮箱地址',
        mobile: '请输入正确的手机号',
      });
      const len = await create({ title_type: 2, name: '长度不对', tax_code: '9133010' });
      expect(len.json.data.errors).toEqual([
        { field: 'tax_code', message: '纳税人识别号须为15、18或20位数字或大写字母' },
      ]);
      // 15- and 20-character tax codes are accepted on length and charset
      expect((await create({ title_type: 2, name: '十五位', tax_code: '330106123456789' })).json.code).toBe(
        0,
      );
      expect(
        (await create({ title_type: 2, name: '二十位', tax_code: '91330106MA2KC7LM1A01' })).json.code,
      ).toBe(0);
      const person = await create({ title_type: 1, name: '张' });
      expect(person.json.data.errors).toEqual([{ field: 'name', message: '个人抬头名称至少2个字' }]);
    });

    it('refuses a duplicate name, updates and deletes', async () => {
      const dup = await create({ title_type: 1, name: '张伟' });
      expect(dup.json).toMatchObject({
        code: CATALOG_CODE.TITLE_DUPLICATE,
        data: { errors: [{ field: 'name', message: '已存在同名抬头' }] },
      });
      const created = await create({ title_type: 1, name: '待删除' });
      const id = created.json.data.id;
      const upd = await call(t.app, 'POST', `/v3/client-title/update?${q(sw)}`, {
        token: admin,
        body: { id, title_type: 2, name: '已改名有限公司', tax_code: '9144030071526726XG', email: 'a@b.cn' },
      });
      expect(upd.json.data).toMatchObject({ name: '已改名有限公司', title_type: 2, email: 'a@b.cn' });
      const bad = await call(t.app, 'POST', `/v3/client-title/update?${q(sw)}`, {
        token: admin,
        body: { id, title_type: 2, name: '已改名有限公司' },
      });
      expect(bad.json.code).toBe(CODE.VALIDATION);
      const del = await call(t.app, 'POST', `/v3/client-title/delete?${q(sw)}`, {
        token: admin,
        body: { ids: [id] },
      });
      expect(del.json.data).toEqual({ deleted: 1 });
    });
  });

  describe('tenant isolation', () => {
    it('never lists, finds, changes or deletes another business’s title', async () => {
      const list = await call(
        t.app,
        'GET',
        `/v3/client-title/list?${q(sw, `&keyword=${encodeURIComponent('别家')}`)}`,
        {
          token: admin,
        },
      );
      expect(list.json.data.total).toBe(0);
      const search = await call(
        t.app,
        'GET',
        `/v3/client-title/search?${q(sw, `&keyword=${encodeURIComponent('别家')}`)}`,
        {
          token: admin,
        },
      );
      expect(search.json.data).toEqual([]);
      const upd = await call(t.app, 'POST', `/v3/client-title/update?${q(sw)}`, {
        token: admin,
        body: { id: otherTitleId, title_type: 1, name: '改掉' },
      });
      expect(upd.json.code).toBe(CATALOG_CODE.TITLE_NOT_FOUND);
      const del = await call(t.app, 'POST', `/v3/client-title/delete?${q(sw)}`, {
        token: admin,
        body: { ids: [otherTitleId] },
      });
      expect(del.json.code).toBe(CATALOG_CODE.TITLE_NOT_FOUND);
      const [still] = await t.db.select().from(buyerTitles).where(eq(buyerTitles.id, otherTitleId));
      expect(still!.name).toBe('别家的客户');
      // the hotel's titles are its own
      const hotelList = await call(t.app, 'GET', `/v3/client-title/list?${q(hotel)}`, { token: admin });
      expect(hotelList.json.data.list.map((x: { name: string }) => x.name)).not.toContain('张伟');
    });
  });

  describe('GET /v3/client/get-info-by-tax-code', () => {
    it('returns the registered business and this business’s saved title for the code', async () => {
      const res = await call(t.app, 'GET', `/v3/client/get-info-by-tax-code?${q(sw, `&tax_code=${VALID}`)}`, {
        token: admin,
      });
      expect(res.json.code).toBe(0);
      // another business: its name for the form, never its internal id or industry (issue 21 L6)
      expect(res.json.data).toMatchObject({ id: null, name: '别家公司', industry: null, tax_code: VALID });
      // two saved titles carry this code: the more used one (recorded by an issued invoice) wins
      expect(res.json.data.title).toMatchObject({ name: '新买家有限公司', tax_code: VALID, use_count: 1 });
    });

    it('returns a saved title alone, null for an unknown code, and 10001 for a malformed one', async () => {
      const seeded = SOFTWARE_TITLES[1]!;
      const title = await call(
        t.app,
        'GET',
        `/v3/client/get-info-by-tax-code?${q(sw, `&tax_code=${seeded.taxCode}`)}`,
        { token: admin },
      );
      expect(title.json.data).toMatchObject({ id: null, industry: null, name: seeded.name });
      expect(title.json.data.title.bank_account).toBe(seeded.bankAccount);
      const none = await call(
        t.app,
        'GET',
        `/v3/client/get-info-by-tax-code?${q(sw, '&tax_code=91340600MA2PBM9HXD')}`,
        {
          token: admin,
        },
      );
      expect(none.json).toMatchObject({ code: 0, data: null });
      const bad = await call(t.app, 'GET', `/v3/client/get-info-by-tax-code?${q(sw, '&tax_code=123')}`, {
        token: admin,
      });
      expect(bad.json.code).toBe(CODE.VALIDATION);
      // the lookup acts for a business (scope 'business'): without one selected, switch first
      const plain = await call(
        t.app,
        'GET',
        `/v3/client/get-info-by-tax-code?tax_code=${DEMO.hotel.taxCode}`,
        {
          token: admin,
        },
      );
      expect(plain.json).toMatchObject({ code: CODE.SWITCH_STORE, data: null });
    });

    it('gives the internal id only for the caller’s own business (issue 21 L6)', async () => {
      const own = await call(
        t.app,
        'GET',
        `/v3/client/get-info-by-tax-code?${q(hotel, `&tax_code=${DEMO.hotel.taxCode}`)}`,
        { token: admin },
      );
      expect(own.json.data).toMatchObject({ id: hotel, name: DEMO.hotel.name, industry: 'hotel' });
      // acting for the software business, the hotel (the clerk's lookup of the issue): name and tax code only
      const other = await call(
        t.app,
        'GET',
        `/v3/client/get-info-by-tax-code?${q(sw, `&tax_code=${DEMO.hotel.taxCode}`)}`,
        { token: admin },
      );
      expect(other.json.code).toBe(0);
      expect(other.json.data).toEqual({
        id: null,
        name: DEMO.hotel.name,
        industry: null,
        tax_code: DEMO.hotel.taxCode,
        title: null,
      });
    });
  });

  describe('Excel', () => {
    it('exports the titles and the export imports back unchanged', async () => {
      const exported = await download(t.app, `/v3/client-title/export?${q(hotel)}`, admin);
      const rows = await readRows(exported.body);
      expect(rows[0]).toEqual([
        '购买方类型*',
        '名称*',
        '纳税人识别号*',
        '地址',
        '电话',
        '开户银行',
        '银行账号',
        '邮箱',
        '手机号',
      ]);
      expect(rows.slice(1).map((r) => r[0])).toContain('个人/非企业单位');
      const res = await upload(t.app, `/v3/client-title/import?${q(hotel)}`, admin, {
        filename: 'titles.xlsx',
        content: exported.body,
      });
      expect(res.json).toMatchObject({ code: 0, data: { total: rows.length - 1, created: 0 } });
      const again = await readRows(
        (await download(t.app, `/v3/client-title/export?${q(hotel)}`, admin)).body,
      );
      expect(again).toEqual(rows);
    });

    it('imports new titles from the template layout', async () => {
      const template = await download(t.app, `/v3/client-title/template?${q(hotel)}`, admin);
      const [header] = await readRows(template.body);
      const file = await workbook([
        header!,
        ['企业', '杭州新客户有限公司', '91310115MA1K3BTP2B', '', '0571-12345678', '', '', '', ''],
        ['个人', '周杰', '', '', '', '', '', 'zj@example.com', '13912345678'],
      ]);
      const res = await upload(t.app, `/v3/client-title/import?${q(hotel)}`, admin, {
        filename: 't.xlsx',
        content: file,
      });
      expect(res.json).toMatchObject({ code: 0, data: { total: 2, created: 2, updated: 0 } });
    });

    it('still reads a file of an earlier template: its header and old buyer-type words (issue 24 item 4)', async () => {
      const file = await workbook([
        ['抬头类型', '名称', '纳税人识别号'], // glossary-allow: the earlier template's header
        ['企业', '杭州旧模板有限公司', '91310115MA1K3BTP2B'],
        ['个人/政府事业单位', '旧模板个人', ''], // glossary-allow: what earlier screens offered
      ]);
      const res = await upload(t.app, `/v3/client-title/import?${q(hotel)}`, admin, {
        filename: 'old.xlsx',
        content: file,
      });
      expect(res.json).toMatchObject({ code: 0, data: { total: 2, created: 2, updated: 0 } });
      const rows = await readRows((await download(t.app, `/v3/client-title/export?${q(hotel)}`, admin)).body);
      expect(rows.find((r) => r[1] === '旧模板个人')?.[0]).toBe('个人/非企业单位');
    });

    it('writes nothing when a row is wrong and says where', async () => {
      const file = await workbook([
        ['购买方类型', '名称', '纳税人识别号', '银行账号', '邮箱'],
        ['企业', '正确公司', '91440300568520498A', '', ''],
        ['公司', '类型错', '', '', ''],
        ['企业', '税号错', '91440300568520498B', '12ab', 'x@'],
        ['企业', '正确公司', '91440300568520498A', '', ''],
      ]);
      const res = await upload(t.app, `/v3/client-title/import?${q(hotel)}`, admin, {
        filename: 'b.xlsx',
        content: file,
      });
      expect(res.json.code).toBe(CATALOG_CODE.IMPORT_ROWS_INVALID);
      expect(res.json.data.errors).toEqual(
        [
          { row: 3, column: '购买方类型', message: '购买方类型请填写“企业”或“个人/非企业单位”' },
          { row: 4, column: '纳税人识别号', message: '统一社会信用代码校验位不正确，请核对' },
          { row: 4, column: '银行账号', message: '银行账号须为1-30位数字' },
          { row: 4, column: '邮箱', message: '请输入正确的邮箱地址' },
          { row: 5, column: '名称', message: '与第2行的名称重复' },
        ].sort((a, b) => a.row - b.row),
      );
      const [none] = await t.db.select().from(buyerTitles).where(eq(buyerTitles.name, '正确公司'));
      expect(none).toBeUndefined();
    });

    it('refuses a non-Excel file', async () => {
      const res = await upload(t.app, `/v3/client-title/import?${q(hotel)}`, admin, {
        filename: 'titles.txt',
        content: 'hello',
        type: 'text/plain',
      });
      expect(res.json.code).toBe(CATALOG_CODE.IMPORT_NOT_EXCEL);
    });
  });

  describe('permissions', () => {
    it('lets an invoicing-only role read titles and goods but not change them', async () => {
      // the clerk's rule narrowed to the single-invoice page before the clerk's first call
      await t.db.update(authorityRules).set({ urls: ['/home/index', '/invoice/online'] });
      const clerk = await login(t.app, DEMO.clerk.account);
      const search = await call(t.app, 'GET', `/v3/client-title/search?${q(sw)}`, { token: clerk });
      expect(search.json.code).toBe(0);
      const projects = await call(t.app, 'GET', `/v3/client-project/get-projects?${q(sw)}`, { token: clerk });
      expect(projects.json.code).toBe(0);
      const rate = await call(t.app, 'POST', `/v3/client-project/tax-rate?${q(sw)}`, {
        token: clerk,
        body: {},
      });
      expect(rate.json.code).toBe(0);
      const write = await call(t.app, 'POST', `/v3/client-title/create?${q(sw)}`, {
        token: clerk,
        body: { title_type: 1, name: '越权' },
      });
      expect(write.json.code).toBe(CODE.FORBIDDEN);
      const goodsWrite = await call(t.app, 'POST', `/v3/client-project/delete?${q(sw)}`, {
        token: clerk,
        body: { ids: [1] },
      });
      expect(goodsWrite.json.code).toBe(CODE.FORBIDDEN);
      const exported = await download(t.app, `/v3/client-title/export?${q(sw)}`, clerk);
      expect(JSON.parse(exported.body.toString()).code).toBe(CODE.FORBIDDEN);
    });
  });
});
