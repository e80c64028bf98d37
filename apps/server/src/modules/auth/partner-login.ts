import { AUTH_CODE, maskPhone } from '@kaipiao/shared';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { PartnerCredential, SignOnProvider } from '../../providers/sign-on.ts';
import * as repo from './repo.ts';
import { needsPhoneVerification, trustNewDevice } from './service.ts';
import { issueSession } from './session-issue.ts';
import { verifySmsCode } from './sms-codes.ts';

type CredentialInput = { token?: string; ticket?: string; app_id?: string };

function credentialOf(input: CredentialInput): PartnerCredential {
  if (input.ticket && !input.token) return { kind: 'ticket', value: input.ticket, appId: input.app_id };
  if (input.token && !input.ticket) return { kind: 'token', value: input.token, appId: input.app_id };
  throw new AppError(AUTH_CODE.TICKET_INVALID);
}

/** The partner's user behind a live credential; the credential stays unused. */
async function resolve(db: Db, signOn: SignOnProvider, cred: PartnerCredential) {
  const who = await signOn.inspect(cred);
  const user = who ? await repo.findUserById(db, who.userId) : null;
  if (!who || !user) throw new AppError(AUTH_CODE.TICKET_INVALID);
  if (user.status !== 'active') throw new AppError(AUTH_CODE.ACCOUNT_DISABLED);
  return { user, source: who.appId };
}

/**
 * spec §4 "Token in URL" / "Ticket": auth_status 1 signs in at once (no two-factor, or a trusted
 * secure_id) with the partner app as the session's source; 2 asks for the phone first and leaves
 * the credential unused for verifySecureIdMobile.
 */
export async function checkSecureId(
  db: Db,
  signOn: SignOnProvider,
  input: CredentialInput & { secure_id?: string },
) {
  const cred = credentialOf(input);
  const { user, source } = await resolve(db, signOn, cred);
  const mobile = maskPhone(user.mobile);
  if (await needsPhoneVerification(db, user, input.secure_id)) {
    return { auth_status: 2 as const, mobile, source };
  }
  if (!(await signOn.consume(cred))) throw new AppError(AUTH_CODE.TICKET_INVALID);
  const session = await issueSession(db, user, { source });
  return { auth_status: 1 as const, token: session.token, mobile, source, user: session.user };
}

/** The phone check after auth_status 2: the SMS code (reg-sms, purpose login), then the credential is used up. */
export async function verifySecureIdMobile(
  db: Db,
  dataDir: string,
  signOn: SignOnProvider,
  input: CredentialInput & { sms_captcha: string; mobile: string },
) {
  const cred = credentialOf(input);
  const { user, source } = await resolve(db, signOn, cred);
  if (user.mobile !== input.mobile) throw new AppError(AUTH_CODE.MOBILE_MISMATCH);
  await verifySmsCode(db, dataDir, input.mobile, 'login', input.sms_captcha);
  if (!(await signOn.consume(cred))) throw new AppError(AUTH_CODE.TICKET_INVALID);
  const secureId = await trustNewDevice(db, user.id);
  const session = await issueSession(db, user, { source });
  return { token: session.token, secure_id: secureId, source, user: session.user };
}
