import {
  AUTH_STATUS,
  type DevRealNameBody,
  type JcQrCodeResponse,
  PROMPT_AUTH_STATUSES,
  type RealNameInfo,
  type RealNameSmsResponse,
} from '@kaipiao/shared';
import type { RealNameState, SandboxRealNameBureau } from '../../channels/realname-sandbox.ts';
import type { DeviceAuthHub, RealNameNote } from './hub.ts';

const flag = (b: boolean) => (b ? 1 : 0) as 0 | 1;

function toInfo(s: RealNameState): RealNameInfo {
  return {
    device_id: s.deviceId,
    channel: s.channel,
    tax_code: s.taxCode,
    terminal_code: s.terminalNo,
    tax_account: s.taxAccount,
    tax_mobile: s.taxMobile,
    name: s.personName,
    auth_type: s.authType,
    auth_status: s.effectiveStatus,
    auth_way: s.authWay,
    ele_tax_login_type: s.eleTaxLoginType,
    logged_in: flag(s.loggedIn),
    login_expires_at: s.loginExpiresAt?.toISOString() ?? null,
    qrCode: s.qrCode,
    authStatus: s.effectiveStatus,
  };
}

/** Authorised = a live bureau session with no authorisation outstanding (SMS login or a confirmed QR). */
export function needsAuth(s: Pick<RealNameState, 'loggedIn' | 'effectiveStatus'>): boolean {
  return !s.loggedIn || PROMPT_AUTH_STATUSES.includes(s.effectiveStatus);
}

export function toNote(s: RealNameState): RealNameNote {
  return {
    type: 'auth',
    client_id: s.clientId,
    device_id: s.deviceId,
    qr_code: s.qrCode,
    auth_type: s.authType,
    auth_status: s.effectiveStatus,
    expires_at: s.effectiveStatus === AUTH_STATUS.valid ? (s.qrExpiresAt?.toISOString() ?? null) : null,
  };
}

/** Real-name login and authorisation (spec §2–§4): the bureau's answers, and a NOTIFY on every status change. */
export class RealNameService {
  constructor(
    private readonly bureau: SandboxRealNameBureau,
    private readonly hub: DeviceAuthHub,
    /** a state changed: the business's cached device check is forgotten (`app.invalidate`) */
    private readonly forget: (clientId: number) => Promise<void> = async () => {},
  ) {}

  private async changed(s: RealNameState): Promise<RealNameState> {
    await this.forget(s.clientId);
    await this.hub.publish(toNote(s));
    return s;
  }

  /**
   * The dialog's data. `judgeInvoiceStatus` is the non-initiative QR refresh (spec §7): a new QR when
   * the bureau session is up; without one no QR can be had (the dialog then shows its hint).
   */
  async info(clientId: number, deviceId: number, judgeInvoiceStatus = false): Promise<RealNameInfo> {
    const s = await this.bureau.state(clientId, deviceId);
    if (!judgeInvoiceStatus) return toInfo(s);
    if (!s.loggedIn) return { ...toInfo(s), qrCode: '', authStatus: AUTH_STATUS.expired };
    const fresh = await this.bureau.qr(clientId, deviceId, { prompt: true });
    if (fresh.qrToken !== s.qrToken || fresh.effectiveStatus !== s.effectiveStatus) await this.changed(fresh);
    return toInfo(fresh);
  }

  /**
   * The initiative QR request (jc-get-qr-code). Not pushed to the device-authorisation sockets: the
   * person asked for it in their own dialog (which polls); the socket carries the bureau's requests.
   */
  async qrCode(clientId: number, deviceId: number): Promise<JcQrCodeResponse> {
    const s = await this.bureau.qr(clientId, deviceId);
    return { qrCode: s.qrCode, authStatus: s.effectiveStatus, authType: s.authType };
  }

  async sendSms(clientId: number, deviceId: number): Promise<RealNameSmsResponse> {
    const r = await this.bureau.sendSms(clientId, deviceId);
    return { logged_in: flag(r.loggedIn), wait_seconds: r.waitSeconds };
  }

  async smsLogin(clientId: number, deviceId: number, code: string) {
    const s = await this.bureau.smsLogin(clientId, deviceId, code);
    await this.forget(clientId);
    return { logged_in: flag(s.loggedIn), login_expires_at: s.loginExpiresAt!.toISOString() };
  }

  /**
   * The device check's answer (spec §4, §7 check-tax `check_auth`): which active 数电 devices of the
   * business need real-name authorisation now — the bureau session is down, or the bureau asks for an
   * authorisation not yet done (auth_status 1, 3 or 4). The one rule the socket and the device list share.
   */
  async authNeeds(clientId: number): Promise<Map<number, boolean>> {
    return (await this.authNeedsUntil(clientId)).needs;
  }

  /**
   * authNeeds, and when (ms on the bureau's clock) it may change by time alone — the first login or
   * valid QR of the business to lapse; null when none will — so that an answer kept in a cache
   * (the device check, lib/read-cache.ts) stops being served then.
   */
  async authNeedsUntil(clientId: number): Promise<{ needs: Map<number, boolean>; until: number | null }> {
    const states = await this.bureau.listForClient(clientId);
    const lapses = states
      .flatMap((s) => [s.loggedIn ? s.loginExpiresAt : null, s.qrCode ? s.qrExpiresAt : null])
      .filter((d): d is Date => d !== null)
      .map((d) => d.getTime());
    return {
      needs: new Map(states.map((s) => [s.deviceId, needsAuth(s)])),
      until: lapses.length > 0 ? Math.min(...lapses) : null,
    };
  }

  /** Pending bureau-raised prompts a socket gets when it opens (auth_status 1, 3 or 4). */
  async pending(clientId: number): Promise<RealNameNote[]> {
    const states = await this.bureau.listForClient(clientId);
    return states
      .filter((s) => s.promptRaised === 1 && PROMPT_AUTH_STATUSES.includes(s.effectiveStatus))
      .map(toNote);
  }

  // ---- sandbox controls (/v3/dev/real-name/*) ----

  /** The bureau asks the person to authenticate (e.g. the face-check interval elapsed): a fresh QR. */
  async require(deviceId: number, body: DevRealNameBody): Promise<RealNameInfo> {
    const clientId = await this.bureau.clientOf(deviceId);
    if (body.auth_type !== undefined)
      await this.bureau.setStatus(clientId, deviceId, { authType: body.auth_type });
    return toInfo(await this.changed(await this.bureau.qr(clientId, deviceId, { bureau: true })));
  }

  async confirm(deviceId: number): Promise<RealNameInfo> {
    const clientId = await this.bureau.clientOf(deviceId);
    return toInfo(await this.changed(await this.bureau.confirm(clientId, deviceId)));
  }

  async expire(deviceId: number): Promise<RealNameInfo> {
    const clientId = await this.bureau.clientOf(deviceId);
    return toInfo(await this.changed(await this.bureau.expireQr(clientId, deviceId)));
  }

  async appRelogin(deviceId: number): Promise<RealNameInfo> {
    const clientId = await this.bureau.clientOf(deviceId);
    const s = await this.bureau.setStatus(clientId, deviceId, {
      authStatus: AUTH_STATUS.appRelogin,
      promptRaised: 1,
    });
    return toInfo(await this.changed(s));
  }

  async logout(deviceId: number): Promise<RealNameInfo> {
    const clientId = await this.bureau.clientOf(deviceId);
    const s = await this.bureau.setStatus(clientId, deviceId, { logout: true });
    await this.forget(clientId);
    return toInfo(s);
  }

  async configure(deviceId: number, body: DevRealNameBody): Promise<RealNameInfo> {
    const clientId = await this.bureau.clientOf(deviceId);
    const s = await this.bureau.setStatus(clientId, deviceId, {
      authType: body.auth_type,
      authWay: body.auth_way,
      eleTaxLoginType: body.ele_tax_login_type,
      taxMobile: body.tax_mobile,
      smsAnswer10000: body.sms_answer_10000 === undefined ? undefined : flag(body.sms_answer_10000),
    });
    await this.forget(clientId);
    return toInfo(s);
  }
}
