import { Card } from 'antd';
import { UnderConstruction } from '../../components/under-construction.tsx';

/** A console page whose feature is not built yet: the real layout, a plain 功能建设中. */
export default function UnderConstructionPage() {
  return (
    <Card variant="borderless">
      <UnderConstruction />
    </Card>
  );
}
