import type * as ExcelJSModule from 'exceljs';

type PdfKitClass = typeof import('pdfkit');

/**
 * Libraries that are slow to load and needed only by a few routes (exceljs ~0.5–2.5 s, archiver
 * ~0.4–1.8 s, pdfkit ~0.3–1.1 s on a 2-core machine) are loaded on first use, not when the app starts: a start, and
 * every test file that builds the app, does not pay for them (architecture.md §8). The promise is
 * kept, so the second caller waits for the same load.
 */
let excel: Promise<typeof ExcelJSModule> | undefined;
let archiver: Promise<typeof import('archiver')> | undefined;
let pdfkit: Promise<PdfKitClass> | undefined;

export function loadExcelJS(): Promise<typeof ExcelJSModule> {
  excel ??= import('exceljs').then((m) => (m as unknown as { default: typeof ExcelJSModule }).default ?? m);
  return excel;
}

export function loadArchiver(): Promise<typeof import('archiver')> {
  archiver ??= import('archiver');
  return archiver;
}

/** pdfkit's document class (documents/pdf.ts). */
export function loadPdfKit(): Promise<PdfKitClass> {
  pdfkit ??= import('pdfkit').then((m) => m.default);
  return pdfkit;
}
