import { TitlesPage } from '../../../features/titles/components/titles-page.tsx';

/** spec §2 购方抬头 /device-project/title. */
export default function TitlePage() {
  return <TitlesPage />;
}
