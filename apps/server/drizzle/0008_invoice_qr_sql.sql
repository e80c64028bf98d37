-- The 票面 QR text (domain.md §1.2) in SQL, so that the sandbox tax channel can record an issued
-- invoice, number and QR together, in the one statement that allocates its number (issue 3).
-- Mirrors buildInvoiceQr / crc16x25 of packages/shared/src/money/qr.ts (a test keeps them equal).
--
-- CRC-16/X-25: poly 0x1021 reflected (0x8408 = 33800), init 0xFFFF, xorout 0xFFFF, over UTF-8 bytes.
CREATE OR REPLACE FUNCTION kp_crc16_x25(s text) RETURNS text
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
  AS $$
DECLARE
  b bytea := convert_to(s, 'UTF8');
  crc int := 65535;
BEGIN
  FOR i IN 0 .. length(b) - 1 LOOP
    crc := crc # get_byte(b, i);
    FOR j IN 1 .. 8 LOOP
      IF (crc & 1) = 1 THEN
        crc := (crc >> 1) # 33800;
      ELSE
        crc := crc >> 1;
      END IF;
    END LOOP;
  END LOOP;
  RETURN upper(lpad(to_hex((crc # 65535) & 65535), 4, '0'));
END
$$;
--> statement-breakpoint
-- `01,类型,发票代码,发票号码,金额,开票日期YYYYMMDD(北京时间),校验码,CRC`; amount with two decimals.
CREATE OR REPLACE FUNCTION kp_invoice_qr(
  type_code text, invoice_code text, invoice_no text, amount numeric, issued_at timestamptz, check_code text
) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
  SELECT head || ',' || kp_crc16_x25(head)
  FROM (SELECT '01,' || type_code || ',' || coalesce(invoice_code, '') || ',' || invoice_no || ','
          || to_char(round(amount, 2), 'FM9999999999999990.00') || ','
          || to_char((issued_at AT TIME ZONE 'UTC') + interval '8 hours', 'YYYYMMDD') || ','
          || coalesce(check_code, '') AS head) h
$$;
