import type { IssueResult } from '@kaipiao/shared';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { alertError } from '../../../lib/antd/feedback.ts';
import { getIssueResult, issueBlueInvoice, reconcileSerial } from '../api/issue.ts';
import {
  buildRequest,
  payloadFingerprint,
  type Seller,
  smallScaleReasonNeeded,
  type TaxpayerType,
} from '../utils/build-request.ts';
import { type DraftAction, draftReducer, emptyDraft } from '../utils/draft.ts';
import {
  type Attempt,
  clearDraft,
  loadDraft,
  newSerial,
  type StoredDraft,
  saveDraft,
} from '../utils/draft-storage.ts';
import { type IssueCalls, type Outcome, pollResult, sendIssue } from '../utils/issue-protocol.ts';
import { computeAll, totalsOf } from '../utils/line-math.ts';
import { sameRecord } from '../utils/memo.ts';
import type { Draft, FieldErrors } from '../utils/types.ts';
import { type Limits, validateDraft } from '../utils/validate.ts';

// The single-invoice form's state: the draft, its serial number and what is known about the last
// request sent with it (architecture.md §5), persisted in sessionStorage until the invoice exists.

const EARLIER =
  '此前用同一流水号提交的发票已开具（可能在其他窗口），以下是已开具的发票；修改后的内容未开具，如需再开请点击“继续开票”。';

/** a line's figure: leaving it shows the invoice totals' checks too */
const LINE_FIGURE = /^goods_info\.\d+\.(quantity|price|amount)$/;
const TOTAL_PATHS = [
  'invoice_info.total_amount',
  'invoice_info.total_tax',
  'invoice_info.total_price_with_tax',
];

export type Phase = 'editing' | 'submitting' | 'checking' | 'unknown' | 'issued';

const defaultCalls: IssueCalls = {
  issue: issueBlueInvoice,
  result: getIssueResult,
  reconcile: reconcileSerial,
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
};

type ServerError = { message: string; snapshot: string };

/** The payload's value at a dotted path, as text (a server error is shown while it is unchanged). */
function valueAt(root: unknown, path: string): string {
  let v: unknown = root;
  for (const part of path.split('.')) v = (v as Record<string, unknown> | null | undefined)?.[part];
  return JSON.stringify(v ?? null);
}

export type IssueFormOptions = {
  storageKey: string;
  hotel: boolean;
  seller: Seller;
  drawer: string;
  /** the chosen device's limits for a draft */
  limitsFor?: (draft: Draft) => Limits;
  calls?: IssueCalls;
  /** a new form's starting draft (e.g. the hotel's 住宿费 line) */
  initial?: () => Draft;
  /** the business's taxpayer type (POST tax-rate), undefined while unknown */
  taxpayerType?: TaxpayerType;
};

export function useIssueForm(opts: IssueFormOptions) {
  const { storageKey, seller, limitsFor, taxpayerType } = opts;
  const calls = opts.calls ?? defaultCalls;
  const [boot] = useState<StoredDraft>(
    () =>
      loadDraft(storageKey) ?? {
        draft: opts.initial?.() ?? emptyDraft({ hotel: opts.hotel, drawer: opts.drawer }),
        serial: newSerial(),
        attempt: null,
      },
  );
  const [draft, dispatch] = useReducer(draftReducer, boot.draft);
  const [serial, setSerial] = useState(boot.serial);
  const attempt = useRef<Attempt | null>(boot.attempt);
  const [phase, setPhase] = useState<Phase>(
    boot.attempt?.state === 'failed' || !boot.attempt ? 'editing' : 'checking',
  );
  const [result, setResult] = useState<IssueResult | null>(null);
  const [notice, setNotice] = useState('');
  /** set when the invoice shown is an earlier one made under this serial, not the edited draft */
  const [resultNote, setResultNote] = useState('');
  const [showAll, setShowAll] = useState(false);
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [serverErrors, setServerErrors] = useState<Record<string, ServerError>>({});
  const inFlight = useRef(false);

  // the line numbers, computed once per change: the totals, the payload and the checks all read them
  const numbers = useMemo(
    () => computeAll(draft.lines, draft.price_includes_tax),
    [draft.lines, draft.price_includes_tax],
  );
  const totals = useMemo(() => totalsOf(numbers), [numbers]);
  const lines = draft.lines;
  /** small-scale 3% while the 1% reduction runs: the reason select shows, is required and is sent */
  const reasonNeeded = useMemo(() => smallScaleReasonNeeded({ lines }, taxpayerType), [lines, taxpayerType]);
  const payload = useMemo(
    () => buildRequest(draft, serial, seller, { reasonNeeded, numbers }),
    [draft, serial, seller, reasonNeeded, numbers],
  );
  const limits = useMemo(() => limitsFor?.(draft) ?? {}, [limitsFor, draft]);
  const validation = useMemo(
    () => validateDraft(draft, payload, { sellerTaxCode: seller.tax_code, limits, reasonNeeded, numbers }),
    [draft, payload, seller.tax_code, limits, reasonNeeded, numbers],
  );

  // sessionStorage keeps the draft and its serial until the invoice is issued
  useEffect(() => {
    if (phase !== 'issued') saveDraft(storageKey, { draft, serial, attempt: attempt.current });
  }, [storageKey, draft, serial, phase]);

  const persist = useCallback(
    (next: Attempt | null, s = serial) => {
      attempt.current = next;
      saveDraft(storageKey, { draft, serial: s, attempt: next });
    },
    [storageKey, draft, serial],
  );

  const settle = useCallback(
    (outcome: Outcome, fingerprint: string, note = '') => {
      if (outcome.kind === 'issued') {
        clearDraft(storageKey);
        attempt.current = null;
        setResult(outcome.result);
        setResultNote(note);
        setNotice('');
        setPhase('issued');
        return;
      }
      if (outcome.kind === 'unknown') {
        persist({ fingerprint, state: 'unknown' });
        setNotice(`${outcome.message}。可稍后刷新结果，重新提交也不会重复开票。`);
        setPhase('unknown');
        return;
      }
      persist({ fingerprint, state: 'failed' });
      setPhase('editing');
      if (outcome.kind === 'rejected') {
        const next: Record<string, ServerError> = {};
        for (const [field, message] of Object.entries(outcome.errors)) {
          next[field] = { message, snapshot: valueAt(payload, field) };
        }
        setServerErrors(next);
        setShowAll(true);
        if (!Object.keys(next).length) alertError('提示', outcome.message || '开票信息有误，请检查后重试');
      } else {
        alertError('提示', outcome.message || '开票失败，请稍后重试');
      }
    },
    [storageKey, persist, payload],
  );

  // a reload (or a duplicated tab) while a request was out: ask the server before anything else
  const checkResult = useCallback(async () => {
    const last = attempt.current;
    if (!last || inFlight.current) return;
    inFlight.current = true;
    setPhase('checking');
    try {
      const polled = await pollResult(serial, calls, { attempts: 1 });
      if (polled) settle(polled, last.fingerprint);
      else setPhase(last.state === 'unknown' ? 'unknown' : 'editing');
    } finally {
      inFlight.current = false;
    }
  }, [serial, calls, settle]);

  const checkedOnBoot = useRef(false);
  useEffect(() => {
    if (checkedOnBoot.current) return;
    checkedOnBoot.current = true;
    if (boot.attempt && boot.attempt.state !== 'failed') void checkResult();
  }, [boot.attempt, checkResult]);

  /** Marks every error visible; true when the draft may be sent. */
  const validateAll = useCallback(() => {
    setShowAll(true);
    return Object.keys(validation.errors).length === 0;
  }, [validation.errors]);

  const submit = useCallback(async () => {
    if (inFlight.current || phase === 'issued') return;
    if (!validateAll()) return;
    inFlight.current = true;
    setPhase('submitting');
    setServerErrors({});
    try {
      const fingerprint = payloadFingerprint(payload);
      let s = serial;
      const last = attempt.current;
      if (last && last.fingerprint !== fingerprint) {
        if (last.state !== 'failed') {
          // the earlier request may have made an invoice: find out before sending another
          const polled = await pollResult(s, calls, { attempts: 1 });
          if (polled && polled.kind !== 'failed') {
            settle(polled, last.fingerprint, EARLIER);
            return;
          }
          if (polled?.kind === 'failed') s = newSerial();
        } else {
          s = newSerial(); // no invoice for the old serial, and the server keeps its payload
        }
      }
      if (s !== serial) setSerial(s);
      persist({ fingerprint, state: 'pending' }, s);
      let outcome = await sendIssue({ ...payload, serial_no: s }, calls);
      if (outcome.kind === 'conflict') {
        // the serial already carries another payload (e.g. another tab): what became of it?
        const earlier = await pollResult(s, calls, { attempts: 1 });
        if (earlier?.kind === 'issued' || earlier?.kind === 'unknown') {
          settle(earlier, fingerprint, EARLIER);
          return;
        }
        // it made no invoice: this draft goes out under a fresh serial
        s = newSerial();
        setSerial(s);
        persist({ fingerprint, state: 'pending' }, s);
        outcome = await sendIssue({ ...payload, serial_no: s }, calls);
      }
      settle(outcome, fingerprint);
    } finally {
      inFlight.current = false;
    }
  }, [phase, validateAll, payload, serial, calls, persist, settle]);

  /** An empty form that keeps the device, kind, price mode and signatures. */
  const freshDraft = useCallback((): Draft => {
    const fresh = opts.initial?.() ?? emptyDraft({ hotel: opts.hotel, drawer: opts.drawer });
    return {
      ...fresh,
      device_id: draft.device_id,
      invoice_type: draft.invoice_type,
      price_includes_tax: draft.price_includes_tax,
      drawer: draft.drawer,
      payee: draft.payee,
      reviewer: draft.reviewer,
    };
  }, [opts, draft]);

  const resetMarks = useCallback(() => {
    setServerErrors({});
    setShowAll(false);
    setTouched(new Set());
  }, []);

  /** 继续开票: a new serial and empty lines; device, kind, price mode and signatures stay. */
  const startNew = useCallback(() => {
    const next = freshDraft();
    const s = newSerial();
    attempt.current = null;
    dispatch({ type: 'replace', draft: next });
    setSerial(s);
    setResult(null);
    setResultNote('');
    resetMarks();
    setNotice('');
    setPhase('editing');
    saveDraft(storageKey, { draft: next, serial: s, attempt: null });
  }, [freshDraft, resetMarks, storageKey]);

  /**
   * 清空: an empty form under the same serial; what is known about the last request stays, so a
   * different invoice sent next first asks what became of it (and takes a new serial if needed).
   */
  const clear = useCallback(() => {
    dispatch({ type: 'replace', draft: freshDraft() });
    resetMarks();
  }, [freshDraft, resetMarks]);

  /**
   * A field left: its checks show from now on (issue 24 item 2). Leaving a line's quantity, price or
   * amount also shows what it does to the invoice — the totals against the device's limit and quota.
   */
  const touch = useCallback((path: string) => {
    const paths = LINE_FIGURE.test(path) ? [path, ...TOTAL_PATHS] : [path];
    setTouched((prev) => (paths.every((p) => prev.has(p)) ? prev : new Set([...prev, ...paths])));
  }, []);

  const lastErrors = useRef<FieldErrors | undefined>(undefined);
  const errors = useMemo(() => {
    const out: FieldErrors = {};
    for (const [path, message] of Object.entries(validation.errors)) {
      if (showAll || touched.has(path)) out[path] = message;
    }
    for (const [path, e] of Object.entries(serverErrors)) {
      if (valueAt(payload, path) === e.snapshot) out[path] ??= e.message;
    }
    lastErrors.current = sameRecord(lastErrors.current, out);
    return lastErrors.current;
  }, [validation.errors, showAll, touched, serverErrors, payload]);
  /** the server's refusals still standing, for the summary above the actions */
  const serverMessages = useMemo(
    () => [
      ...new Set(
        Object.entries(serverErrors)
          .filter(([p, e]) => valueAt(payload, p) === e.snapshot)
          .map(([, e]) => e.message),
      ),
    ],
    [serverErrors, payload],
  );
  const lastWarnings = useRef<FieldErrors | undefined>(undefined);
  const warnings = useMemo(() => {
    lastWarnings.current = sameRecord(lastWarnings.current, validation.warnings);
    return lastWarnings.current;
  }, [validation.warnings]);

  const act = useCallback((action: DraftAction) => dispatch(action), []);

  return {
    draft,
    dispatch: act,
    serial,
    numbers,
    totals,
    payload,
    reasonNeeded,
    errors,
    warnings,
    blocking: validation.errors,
    touch,
    validateAll,
    submit,
    checkResult,
    startNew,
    clear,
    serverMessages,
    phase,
    result,
    resultNote,
    notice,
  };
}

export type IssueForm = ReturnType<typeof useIssueForm>;
