import { GoodsPage } from '../../../features/goods/components/goods-page.tsx';

/** spec §2 商品编码 /device-project/project. */
export default function ProjectPage() {
  return <GoodsPage variant="general" />;
}
