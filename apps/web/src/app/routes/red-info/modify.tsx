import { RedModifyPage } from '../../../features/red-info/components/red-modify-page.tsx';

/** spec §2 hidden 填写红字信息 /red-info/modify (?invoice_id= the blue invoice). */
export default function RedInfoModifyRoute() {
  return <RedModifyPage />;
}
