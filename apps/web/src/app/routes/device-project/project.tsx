import { prefetchGoods } from '../../../features/goods/api/goods.ts';
import { GoodsPage } from '../../../features/goods/components/goods-page.tsx';

export const prefetch = prefetchGoods;

/** spec §2 商品编码 /device-project/project. */
export default function ProjectPage() {
  return <GoodsPage variant="general" />;
}
