-- The 票面二维码 check code the bureau's way (issue 23, spec V5.002 §六, domain.md §1.2): poly 0x8005,
-- init 0, not reflected, xorout 0 (CRC-16/UMTS), over the first seven fields AND the comma after the
-- seventh. 0008/0015 computed CRC-16/X-25 over the seven fields without that comma, which no bureau
-- reader accepts. Mirrors qrCrc16 / invoiceQrText of packages/shared/src/money/qr.ts (the issuing
-- tests compare the stored text with invoiceQrText).
DROP FUNCTION IF EXISTS kp_invoice_qr(text, text, text, numeric, timestamptz, text);
--> statement-breakpoint
DROP FUNCTION IF EXISTS kp_crc16_x25(text);
--> statement-breakpoint
-- Table-driven, one step per byte: t[n] = the register after shifting byte n through it.
CREATE OR REPLACE FUNCTION kp_qr_crc16(s text) RETURNS text
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
  AS $$
DECLARE
  t CONSTANT int[] := ARRAY[
    0, 32773, 32783, 10, 32795, 30, 20, 32785, 32819, 54, 60, 32825, 40, 32813, 32807, 34,
    32867, 102, 108, 32873, 120, 32893, 32887, 114, 80, 32853, 32863, 90, 32843, 78, 68, 32833,
    32963, 198, 204, 32969, 216, 32989, 32983, 210, 240, 33013, 33023, 250, 33003, 238, 228, 32993,
    160, 32933, 32943, 170, 32955, 190, 180, 32945, 32915, 150, 156, 32921, 136, 32909, 32903, 130,
    33155, 390, 396, 33161, 408, 33181, 33175, 402, 432, 33205, 33215, 442, 33195, 430, 420, 33185,
    480, 33253, 33263, 490, 33275, 510, 500, 33265, 33235, 470, 476, 33241, 456, 33229, 33223, 450,
    320, 33093, 33103, 330, 33115, 350, 340, 33105, 33139, 374, 380, 33145, 360, 33133, 33127, 354,
    33059, 294, 300, 33065, 312, 33085, 33079, 306, 272, 33045, 33055, 282, 33035, 270, 260, 33025,
    33539, 774, 780, 33545, 792, 33565, 33559, 786, 816, 33589, 33599, 826, 33579, 814, 804, 33569,
    864, 33637, 33647, 874, 33659, 894, 884, 33649, 33619, 854, 860, 33625, 840, 33613, 33607, 834,
    960, 33733, 33743, 970, 33755, 990, 980, 33745, 33779, 1014, 1020, 33785, 1000, 33773, 33767, 994,
    33699, 934, 940, 33705, 952, 33725, 33719, 946, 912, 33685, 33695, 922, 33675, 910, 900, 33665,
    640, 33413, 33423, 650, 33435, 670, 660, 33425, 33459, 694, 700, 33465, 680, 33453, 33447, 674,
    33507, 742, 748, 33513, 760, 33533, 33527, 754, 720, 33493, 33503, 730, 33483, 718, 708, 33473,
    33347, 582, 588, 33353, 600, 33373, 33367, 594, 624, 33397, 33407, 634, 33387, 622, 612, 33377,
    544, 33317, 33327, 554, 33339, 574, 564, 33329, 33299, 534, 540, 33305, 520, 33293, 33287, 514
  ];
  b bytea := convert_to(s, 'UTF8');
  crc int := 0;
BEGIN
  FOR i IN 0 .. length(b) - 1 LOOP
    crc := ((crc << 8) & 65535) # t[(((crc >> 8) # get_byte(b, i)) & 255) + 1];
  END LOOP;
  RETURN upper(lpad(to_hex(crc), 4, '0'));
END
$$;
--> statement-breakpoint
-- `01,类型,发票代码,发票号码,金额,开票日期YYYYMMDD(北京时间),校验码,` then the CRC of that text, then `tail`
-- (',' for the old tax-control kinds, '' for 数电). Which fields a kind passes is qrRuleFor's rule
-- (apps/server/src/modules/invoices/issue-repo.ts): this function only formats.
CREATE OR REPLACE FUNCTION kp_invoice_qr(
  type_code text, invoice_code text, invoice_no text, amount numeric, issued_at timestamptz, check_code text,
  tail text
) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
  SELECT head || kp_qr_crc16(head) || coalesce(tail, '')
  FROM (SELECT '01,' || type_code || ',' || coalesce(invoice_code, '') || ',' || invoice_no || ','
          || to_char(round(amount, 2), 'FM9999999999999990.00') || ','
          || to_char((issued_at AT TIME ZONE 'UTC') + interval '8 hours', 'YYYYMMDD') || ','
          || coalesce(check_code, '') || ',' AS head) h
$$;
--> statement-breakpoint
-- Stored QR texts: their first seven fields were already §六's; the check code is recomputed over
-- them and the comma after them, and the old tax-control kinds (type codes other than 31-34) get the
-- comma after the CRC. Done here, once, rather than on every read: the stored text is what the
-- library answers (qr_string), the roll ticket and the PDF print.
UPDATE invoices i SET qr_string = h.head || kp_qr_crc16(h.head)
    || CASE WHEN split_part(h.head, ',', 2) IN ('31', '32', '33', '34') THEN '' ELSE ',' END
  FROM (SELECT id, array_to_string((string_to_array(qr_string, ','))[1:7], ',') || ',' AS head
        FROM invoices WHERE qr_string <> '') h
  WHERE i.id = h.id;
--> statement-breakpoint
-- Cached PDF and XML files carry the old QR and the old XML layout: dropped, so each is rendered
-- again (by the documents module) on its next download or e-mail.
DELETE FROM invoice_files;
