import { CLERK, expect, loginAs, openUserMenu, test } from '../fixtures.ts';

test.describe('log out', () => {
  test('ends the session on the server and in the browser, then shows login', async ({ page, context }) => {
    await loginAs(page, CLERK.account);
    const token = (await context.cookies()).find((c) => c.name === 'kp_token')?.value;
    expect(token).toBeTruthy();

    // a link on another site (GET with the cookie alone) does not end the session (issue 21 L3)
    const link = await page.request.get('/v3/user/logout');
    expect((await link.json()).code).toBe(12006);
    expect((await page.request.get('/v3/user/info')).ok()).toBe(true);
    expect((await (await page.request.get('/v3/user/info')).json()).code).toBe(0);

    await openUserMenu(page, CLERK.nickname);
    await page.getByRole('button', { name: '退出登录' }).click();
    await expect(page).toHaveURL(/\/user\/login$/);
    await expect(page.getByRole('button', { name: '登录', exact: true })).toBeVisible();
    expect((await context.cookies()).find((c) => c.name === 'kp_token')).toBeUndefined();

    // the old token is refused everywhere
    const res = await page.request.get('/v3/user/info', { headers: { 'access-token': token! } });
    expect((await res.json()).code).toBe(401);

    // and the console sends the browser back to login
    await page.goto('/home/index');
    await expect(page).toHaveURL(/\/user\/login\?redirect=%2Fhome%2Findex$/);
  });
});
