import { MSG } from '@kaipiao/shared/validation/messages';
import {
  CLERK,
  expect,
  FIXED_CAPTCHA,
  lastOutboxId,
  loginAs,
  openUserMenu,
  readSmsCode,
  test,
} from '../fixtures.ts';

test.describe('change-password modal', () => {
  test.beforeEach(async ({ page }) => {
    await loginAs(page, CLERK.account);
  });

  test('shows the hint and a new picture code on open, and every rule message', async ({ page }) => {
    await openUserMenu(page, CLERK.nickname);
    const picture = page.waitForResponse((r) => r.url().includes('/v3/user/picture-code'));
    await page.getByRole('button', { name: '修改密码' }).click();
    const dialog = page.getByRole('dialog', { name: '修改密码' });
    await expect(dialog).toBeVisible();
    await picture;
    await expect(dialog.getByText(MSG.PASSWORD_CHANGE_HINT)).toBeVisible();
    await expect(dialog.getByRole('img', { name: '图形验证码' })).toBeVisible();

    await dialog.getByRole('button', { name: '确定', exact: true }).click();
    // antd renders form messages as plain text under each field
    const message = (text: string) => dialog.getByText(text, { exact: true });
    await expect(message(MSG.PASSWORD_RULE)).toHaveCount(2);
    await expect(message(MSG.PICTURE_CODE)).toBeVisible();
    await expect(message(MSG.SMS_CODE_REQUIRED)).toBeVisible();

    // 8-18 characters with at least two kinds
    await dialog.getByPlaceholder('新密码', { exact: true }).fill('12345678');
    await expect(message(MSG.PASSWORD_RULE)).toHaveCount(2);
    await dialog.getByPlaceholder('新密码', { exact: true }).fill('Abcd1234!');
    await dialog.getByPlaceholder('确认密码', { exact: true }).fill('Abcd1234?');
    await expect(message(MSG.PASSWORD_MISMATCH)).toBeVisible();
    await expect(message(MSG.PASSWORD_RULE)).toHaveCount(0);
    await dialog.getByPlaceholder('确认密码', { exact: true }).fill('Abcd1234!');
    await expect(message(MSG.PASSWORD_MISMATCH)).toHaveCount(0);

    await dialog.getByPlaceholder('验证码', { exact: true }).fill('12');
    await dialog.getByPlaceholder('短信验证码', { exact: true }).fill('123');
    await dialog.getByRole('button', { name: '确定', exact: true }).click();
    await expect(message(MSG.PICTURE_CODE)).toBeVisible();
    await expect(message(MSG.SMS_CODE_REQUIRED)).toBeVisible();
  });

  test('resets the form when closed, with a new picture code when opened again', async ({ page }) => {
    await openUserMenu(page, CLERK.nickname);
    await page.getByRole('button', { name: '修改密码' }).click();
    const dialog = page.getByRole('dialog', { name: '修改密码' });
    await dialog.getByPlaceholder('新密码', { exact: true }).fill('Abcd1234!');
    await dialog.getByPlaceholder('验证码', { exact: true }).fill('ab');
    await dialog.getByRole('button', { name: '取消', exact: true }).click();
    await expect(dialog).toBeHidden();

    await openUserMenu(page, CLERK.nickname);
    const picture = page.waitForResponse((r) => r.url().includes('/v3/user/picture-code'));
    await page.getByRole('button', { name: '修改密码' }).click();
    await expect(dialog).toBeVisible();
    await picture;
    await expect(dialog.getByPlaceholder('新密码', { exact: true })).toHaveValue('');
    await expect(dialog.getByPlaceholder('验证码', { exact: true })).toHaveValue('');
    await expect(dialog.getByText(MSG.PICTURE_CODE, { exact: true })).toHaveCount(0);
  });

  test('sends the SMS code to the own mobile only with a valid picture code', async ({ page }) => {
    await openUserMenu(page, CLERK.nickname);
    await page.getByRole('button', { name: '修改密码' }).click();
    const dialog = page.getByRole('dialog', { name: '修改密码' });
    const before = await lastOutboxId(page.request, CLERK.mobile);

    await dialog.getByRole('button', { name: MSG.GET_SMS_CODE }).click();
    await expect(dialog.getByText(MSG.PICTURE_CODE, { exact: true })).toBeVisible();
    expect(await lastOutboxId(page.request, CLERK.mobile)).toBe(before);

    await dialog.getByPlaceholder('验证码', { exact: true }).fill(FIXED_CAPTCHA);
    await dialog.getByRole('button', { name: MSG.GET_SMS_CODE }).click();
    await expect(page.getByText(MSG.SMS_SENT)).toBeVisible();
    // (no ^: after a refused send antd can leave its collapsed spinner, named "loading", in the button)
    await expect(dialog.getByRole('button', { name: /\d+s后重试$/ })).toBeDisabled();
    expect(await readSmsCode(page.request, CLERK.mobile, { after: before })).toMatch(/^\d{6}$/);
  });
});
