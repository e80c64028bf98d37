import { randomBytes, randomInt } from 'node:crypto';
import {
  AUTH_STATUS,
  beijingDay,
  CODE,
  REAL_NAME_LIMITS,
  REAL_NAME_RESEND_SECONDS,
  REALNAME_CODE,
} from '@kaipiao/shared';
import { and, eq, gt, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { realnameSessions, taxAccounts, taxDevices } from '../db/schema/index.ts';
import { AppError } from '../lib/app-error.ts';
import { codeMatches, hashCode } from '../lib/code-hash.ts';
import type { SmsProvider } from '../providers/sms.ts';

// The sandbox 电子税务局 for real-name login (architecture.md §1, domain.md §7.3): SMS codes to the
// outbox, QR codes that expire, confirmation by a sandbox control, and the bureau's limits
// (one new QR a minute, 20 a day; one SMS per 120 s, 20 a day).

export type RealNameRow = typeof realnameSessions.$inferSelect;
export type RealNameState = RealNameRow & {
  channel: string;
  taxCode: string;
  terminalNo: string;
  /** stored status with an elapsed QR read as expired (3) */
  effectiveStatus: number;
  loggedIn: boolean;
  /** base64 of the QR text while the QR is valid, else '' */
  qrCode: string;
};

const SMS_TRIES = 5;
const qrText = (token: string) => `https://etax.sandbox.kaipiao.local/realname?t=${token}`;
const toBase64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

export class SandboxRealNameBureau {
  constructor(
    private readonly db: Db,
    private readonly sms: SmsProvider,
    /** where the server secret lives: SMS codes are kept as salted HMACs (lib/code-hash.ts) */
    private readonly dataDir: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The device's state; the row is made on first use. Another business's device is refused. */
  async state(clientId: number, deviceId: number): Promise<RealNameState> {
    const [device] = await this.db
      .select({
        kind: taxDevices.kind,
        channel: taxDevices.channel,
        deviceNo: taxDevices.deviceNo,
        terminalNo: taxDevices.terminalNo,
        taxCode: sql<string>`(select tax_code from clients where id = ${taxDevices.clientId})`,
      })
      .from(taxDevices)
      .where(and(eq(taxDevices.id, deviceId), eq(taxDevices.clientId, clientId)));
    if (!device) throw new AppError(REALNAME_CODE.DEVICE_NOT_FOUND);
    if (device.kind !== 'digital') throw new AppError(REALNAME_CODE.NOT_APPLICABLE);
    const account = await this.boundAccount(clientId, deviceId);
    let [row] = await this.db
      .select()
      .from(realnameSessions)
      .where(and(eq(realnameSessions.clientId, clientId), eq(realnameSessions.deviceId, deviceId)));
    if (!row) {
      await this.db
        .insert(realnameSessions)
        .values({
          clientId,
          deviceId,
          taxAccount: account?.account ?? device.deviceNo,
          taxMobile: account?.phone ?? `176${String(deviceId % 1e8).padStart(8, '0')}`,
          personName: account?.personName || '王芳',
        })
        .onConflictDoNothing();
      [row] = await this.db
        .select()
        .from(realnameSessions)
        .where(and(eq(realnameSessions.clientId, clientId), eq(realnameSessions.deviceId, deviceId)));
    }
    const bureauRow = account
      ? {
          ...row!,
          taxAccount: account.account,
          taxMobile: account.phone,
          personName: account.personName || row!.personName,
        }
      : row!;
    return this.view(bureauRow, device);
  }

  /**
   * The 电子税务局 account that logs in for the device (tax_accounts.device_id, the accounts page's
   * row): its account name, phone and person are what the bureau knows, so the real-name dialog and
   * the login SMS use them. A device with no bound account keeps the sandbox's own stand-ins (and
   * the dev control's tax_mobile).
   */
  private async boundAccount(clientId: number, deviceId: number) {
    const [a] = await this.db
      .select({ account: taxAccounts.account, phone: taxAccounts.phone, personName: taxAccounts.personName })
      .from(taxAccounts)
      .where(
        and(
          eq(taxAccounts.clientId, clientId),
          eq(taxAccounts.deviceId, deviceId),
          eq(taxAccounts.status, 'active'),
        ),
      )
      .orderBy(taxAccounts.id)
      .limit(1);
    return a;
  }

  private view(
    row: RealNameRow,
    device: { channel: string; taxCode: string; terminalNo: string },
  ): RealNameState {
    const now = this.now().getTime();
    const qrValid =
      row.authStatus === AUTH_STATUS.valid && !!row.qrExpiresAt && row.qrExpiresAt.getTime() > now;
    const effectiveStatus =
      row.authStatus === AUTH_STATUS.valid && !qrValid ? AUTH_STATUS.expired : row.authStatus;
    return {
      ...row,
      channel: device.channel,
      taxCode: device.taxCode,
      terminalNo: device.terminalNo,
      effectiveStatus,
      loggedIn: !!row.loginExpiresAt && row.loginExpiresAt.getTime() > now,
      qrCode: qrValid && row.qrToken ? toBase64(qrText(row.qrToken)) : '',
    };
  }

  private async update(clientId: number, deviceId: number, values: Partial<RealNameRow>) {
    await this.db
      .update(realnameSessions)
      .set({ ...values, updatedAt: this.now() })
      .where(and(eq(realnameSessions.clientId, clientId), eq(realnameSessions.deviceId, deviceId)));
  }

  /** Sends a login SMS code to the account's phone, unless the session is already up. */
  async sendSms(clientId: number, deviceId: number): Promise<{ loggedIn: boolean; waitSeconds: number }> {
    const s = await this.state(clientId, deviceId);
    if (s.loggedIn) return { loggedIn: true, waitSeconds: 0 };
    const now = this.now();
    if (s.smsSentAt) {
      const wait = Math.ceil(
        (s.smsSentAt.getTime() + REAL_NAME_RESEND_SECONDS * 1000 - now.getTime()) / 1000,
      );
      if (wait > 0) throw new AppError(REALNAME_CODE.SMS_TOO_FREQUENT, undefined, { wait_seconds: wait });
    }
    const day = beijingDay(now);
    const count = s.smsDay === day ? s.smsDayCount : 0;
    if (count >= REAL_NAME_LIMITS.smsPerDay) throw new AppError(REALNAME_CODE.SMS_DAILY_CAP);
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    // only over the state the checks above read: of two parallel sends, one passes the wait
    const [sent] = await this.db
      .update(realnameSessions)
      .set({
        smsCodeHash: await hashCode(this.dataDir, `realname:${deviceId}`, code),
        smsSentAt: now,
        smsExpiresAt: new Date(now.getTime() + REAL_NAME_LIMITS.smsTtlSeconds * 1000),
        smsAttempts: 0,
        smsDay: day,
        smsDayCount: count + 1,
        smsAnswer10000: 0,
        updatedAt: now,
      })
      .where(
        and(
          eq(realnameSessions.clientId, clientId),
          eq(realnameSessions.deviceId, deviceId),
          s.smsSentAt ? eq(realnameSessions.smsSentAt, s.smsSentAt) : isNull(realnameSessions.smsSentAt),
        ),
      )
      .returning({ deviceId: realnameSessions.deviceId });
    if (!sent) {
      throw new AppError(REALNAME_CODE.SMS_TOO_FREQUENT, undefined, {
        wait_seconds: REAL_NAME_RESEND_SECONDS,
      });
    }
    await this.sms.send({
      mobile: s.taxMobile,
      content: `【电子税务局】您正在登录电子税务局，验证码：${code}，${REAL_NAME_LIMITS.smsTtlSeconds / 60}分钟内有效，请勿泄露。`,
      code,
    });
    // some bureaus answer 10000 although the code went out (spec §8)
    if (s.smsAnswer10000) throw new AppError(CODE.CHANNEL, '验证码已发送');
    return { loggedIn: false, waitSeconds: REAL_NAME_RESEND_SECONDS };
  }

  /**
   * Completes the SMS login; the session then lasts about 3 hours (domain.md §7.2). Each try is
   * reserved in one UPDATE before the code is compared, so parallel guesses get no more than 5.
   */
  async smsLogin(clientId: number, deviceId: number, code: string): Promise<RealNameState> {
    const s = await this.state(clientId, deviceId);
    const now = this.now();
    if (!s.smsCodeHash || !s.smsExpiresAt) throw new AppError(REALNAME_CODE.SMS_NOT_SENT);
    const mine = and(eq(realnameSessions.clientId, clientId), eq(realnameSessions.deviceId, deviceId));
    const [tried] = await this.db
      .update(realnameSessions)
      .set({ smsAttempts: sql`${realnameSessions.smsAttempts} + 1` })
      .where(
        and(
          mine,
          isNotNull(realnameSessions.smsCodeHash),
          gt(realnameSessions.smsExpiresAt, now),
          lt(realnameSessions.smsAttempts, SMS_TRIES),
        ),
      )
      .returning({ hash: realnameSessions.smsCodeHash });
    if (!tried?.hash || !(await codeMatches(this.dataDir, `realname:${deviceId}`, code, tried.hash))) {
      throw new AppError(REALNAME_CODE.BAD_SMS_CODE);
    }
    const [used] = await this.db
      .update(realnameSessions)
      .set({
        smsCodeHash: null,
        smsExpiresAt: null,
        loginExpiresAt: new Date(now.getTime() + REAL_NAME_LIMITS.loginTtlHours * 3600_000),
        updatedAt: now,
      })
      .where(and(mine, eq(realnameSessions.smsCodeHash, tried.hash)))
      .returning({ id: realnameSessions.deviceId });
    if (!used) throw new AppError(REALNAME_CODE.BAD_SMS_CODE);
    return this.state(clientId, deviceId);
  }

  /**
   * A QR for the person to scan. A still-valid QR is answered again; a new one is refused within a
   * minute of the last and after 20 in a day (`bureau`: raised by the bureau itself, counted in neither).
   * `prompt`: the QR belongs to a bureau-raised authorisation (the socket prompt), not the person's own login.
   */
  async qr(
    clientId: number,
    deviceId: number,
    opts: { bureau?: boolean; prompt?: boolean } = {},
  ): Promise<RealNameState> {
    const s = await this.state(clientId, deviceId);
    if (!opts.bureau && s.effectiveStatus === AUTH_STATUS.valid) return s;
    const now = this.now();
    const day = beijingDay(now);
    const count = s.qrDay === day ? s.qrDayCount : 0;
    if (!opts.bureau) {
      if (s.qrIssuedAt && now.getTime() - s.qrIssuedAt.getTime() < 60_000) {
        throw new AppError(REALNAME_CODE.QR_TOO_FREQUENT);
      }
      if (count >= REAL_NAME_LIMITS.qrPerDay) throw new AppError(REALNAME_CODE.QR_DAILY_CAP);
    }
    await this.update(clientId, deviceId, {
      authStatus: AUTH_STATUS.valid,
      qrToken: randomBytes(12).toString('hex'),
      qrExpiresAt: new Date(now.getTime() + REAL_NAME_LIMITS.qrTtlSeconds * 1000),
      promptRaised: opts.bureau || opts.prompt ? 1 : 0,
      // the limits count the QRs asked for, not those the bureau raises by itself
      ...(opts.bureau ? {} : { qrIssuedAt: now, qrDay: day, qrDayCount: count + 1 }),
    });
    return this.state(clientId, deviceId);
  }

  /** Sandbox control: the person scanned the QR and confirmed in the app. */
  async confirm(clientId: number, deviceId: number): Promise<RealNameState> {
    const s = await this.state(clientId, deviceId);
    if (s.effectiveStatus === AUTH_STATUS.expired) throw new AppError(REALNAME_CODE.QR_EXPIRED);
    if (s.effectiveStatus !== AUTH_STATUS.valid) throw new AppError(REALNAME_CODE.NO_PENDING_QR);
    const now = this.now();
    await this.update(clientId, deviceId, {
      authStatus: AUTH_STATUS.done,
      promptRaised: 0,
      qrToken: null,
      qrExpiresAt: null,
      loginExpiresAt: new Date(now.getTime() + REAL_NAME_LIMITS.loginTtlHours * 3600_000),
    });
    return this.state(clientId, deviceId);
  }

  /** Sandbox control: the shown QR lapses now. */
  async expireQr(clientId: number, deviceId: number): Promise<RealNameState> {
    await this.state(clientId, deviceId);
    await this.update(clientId, deviceId, { qrExpiresAt: this.now() });
    return this.state(clientId, deviceId);
  }

  /** Sandbox control: the app session is gone (auth_status 4), or the bureau session is dropped. */
  async setStatus(
    clientId: number,
    deviceId: number,
    values: Partial<
      Pick<
        RealNameRow,
        | 'authStatus'
        | 'authType'
        | 'authWay'
        | 'eleTaxLoginType'
        | 'taxMobile'
        | 'smsAnswer10000'
        | 'promptRaised'
      >
    > & { logout?: boolean },
  ): Promise<RealNameState> {
    await this.state(clientId, deviceId);
    const { logout, ...rest } = values;
    await this.update(clientId, deviceId, { ...rest, ...(logout ? { loginExpiresAt: null } : {}) });
    return this.state(clientId, deviceId);
  }

  /** The business's 数电 devices, with the states already made (for the device-authorisation check). */
  async listForClient(clientId: number): Promise<RealNameState[]> {
    const devices = await this.db
      .select({ id: taxDevices.id })
      .from(taxDevices)
      .where(
        and(
          eq(taxDevices.clientId, clientId),
          eq(taxDevices.kind, 'digital'),
          eq(taxDevices.status, 'active'),
        ),
      );
    return Promise.all(devices.map((d) => this.state(clientId, d.id)));
  }

  /** The business a device belongs to (sandbox controls name a device only). */
  async clientOf(deviceId: number): Promise<number> {
    const [d] = await this.db
      .select({ clientId: taxDevices.clientId })
      .from(taxDevices)
      .where(eq(taxDevices.id, deviceId));
    if (!d) throw new AppError(REALNAME_CODE.DEVICE_NOT_FOUND);
    return d.clientId;
  }
}
