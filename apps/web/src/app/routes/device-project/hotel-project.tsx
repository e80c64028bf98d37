import { GoodsPage } from '../../../features/goods/components/goods-page.tsx';

/** spec §2 /hotel/device-project/project: the same page with the hotel's usual codes. */
export default function HotelProjectPage() {
  return <GoodsPage variant="hotel" />;
}
