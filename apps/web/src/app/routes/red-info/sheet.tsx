import { prefetchRedForms } from '../../../features/red-info/api.ts';
import { RedSheetPage } from '../../../features/red-info/components/red-sheet-page.tsx';

export const prefetch = prefetchRedForms;

/** spec §2 开票管理 · 红字信息表 /red-info/sheet. */
export default function RedInfoSheetRoute() {
  return <RedSheetPage />;
}
