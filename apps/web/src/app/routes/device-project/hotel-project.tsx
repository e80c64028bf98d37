import { prefetchGoods } from '../../../features/goods/api/goods.ts';
import { GoodsPage } from '../../../features/goods/components/goods-page.tsx';

export const prefetch = prefetchGoods;

/** spec §2 /hotel/device-project/project: the same page with the hotel's usual codes. */
export default function HotelProjectPage() {
  return <GoodsPage variant="hotel" />;
}
