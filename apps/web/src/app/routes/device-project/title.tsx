import { prefetchTitles } from '../../../features/titles/api/titles.ts';
import { TitlesPage } from '../../../features/titles/components/titles-page.tsx';

export const prefetch = prefetchTitles;

/** spec §2 购方抬头 /device-project/title. */
export default function TitlePage() {
  return <TitlesPage />;
}
