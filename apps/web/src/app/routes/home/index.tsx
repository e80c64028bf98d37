import { HomeWelcome } from '../../../features/home/home-welcome.tsx';

export default function HomePage() {
  return <HomeWelcome />;
}
