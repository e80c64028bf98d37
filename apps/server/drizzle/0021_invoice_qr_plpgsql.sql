-- kp_invoice_qr (0017) in PL/pgSQL: the same text, for half the cost. As a SQL function with a
-- subquery it could not be inlined, and each call ran the SQL-function executor (~11 µs; ~6 µs
-- now): the issuing statement calls it for every invoice it records (issue 11 item 6). Mirrors
-- invoiceQrText of packages/shared/src/money/qr.ts as before (the issuing tests compare the stored
-- text with it).
CREATE OR REPLACE FUNCTION kp_invoice_qr(
  type_code text, invoice_code text, invoice_no text, amount numeric, issued_at timestamptz, check_code text,
  tail text
) RETURNS text
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
  AS $$
DECLARE
  head text := '01,' || type_code || ',' || coalesce(invoice_code, '') || ',' || invoice_no || ','
    || to_char(round(amount, 2), 'FM9999999999999990.00') || ','
    || to_char((issued_at AT TIME ZONE 'UTC') + interval '8 hours', 'YYYYMMDD') || ','
    || coalesce(check_code, '') || ',';
BEGIN
  RETURN head || kp_qr_crc16(head) || coalesce(tail, '');
END
$$;
