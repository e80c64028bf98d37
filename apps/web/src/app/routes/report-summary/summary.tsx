import { SummaryPage } from '../../../features/devices/components/summary-page.tsx';

export default function ReportSummaryPage() {
  return <SummaryPage />;
}
