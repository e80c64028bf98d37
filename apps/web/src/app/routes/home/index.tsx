import { prefetchHome } from '../../../features/home/api.ts';
import { HomeWelcome } from '../../../features/home/home-welcome.tsx';

export const prefetch = prefetchHome;

export default function HomePage() {
  return <HomeWelcome />;
}
