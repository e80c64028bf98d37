// Every browser-storage key the console uses, in one place.
export const STORAGE_KEYS = {
  /**
   * localStorage: until when (epoch ms) the session lives. The token itself is the server's
   * HttpOnly cookie `kp_token` (~2 h, spec §3): no script of ours reads or writes it.
   */
  signedInUntil: 'kp_signed_in_until',
  /** localStorage: trusted-device id returned by login */
  secureId: 'kp_secure_id',
  /** sessionStorage: selected business/store, user, source, platform, flags */
  session: 'kp_session',
  /** localStorage: last selected business/store per user, seeds a new tab's session */
  lastSelection: 'kp_last_selection',
  /** sessionStorage: page tabs */
  tabs: 'kp_tabs',
  /** localStorage: sidebar collapsed */
  layout: 'kp_layout',
  /** localStorage: the all-stores summary guide tip was shown */
  summaryGuide: 'kp_summary_guide_seen',
  /** sessionStorage: the public notice was already shown this session */
  noticeShown: 'kp_notice_shown',
  /** localStorage: the home finance banner was folded into its side tab */
  financeBanner: 'kp_finance_banner_folded',
  /** sessionStorage prefix: the single-invoice draft and its serial number, until issued */
  invoiceDraft: 'kp_invoice_draft',
} as const;

export function readJson<T>(storage: Storage, key: string): T | null {
  try {
    const raw = storage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}
