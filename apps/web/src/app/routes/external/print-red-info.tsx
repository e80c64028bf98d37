import { RedPrintPage } from '../../../features/red-info/components/red-print-page.tsx';

/** spec §2 /external/print-red-info?form_id=…: a red form on paper (not kept alive in tabs). */
export default function PrintRedInfoRoute() {
  return <RedPrintPage />;
}
