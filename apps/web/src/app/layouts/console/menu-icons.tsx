import {
  AccountBookOutlined,
  ApartmentOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  ContactsOutlined,
  FileTextOutlined,
  HomeOutlined,
  LaptopOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  ShopOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import type { ComponentType } from 'react';
import type { IconName } from '../../route-config.tsx';

const ICONS: Record<IconName, ComponentType> = {
  home: HomeOutlined,
  invoice: FileTextOutlined,
  query: BarChartOutlined,
  store: ShopOutlined,
  device: LaptopOutlined,
  goods: AppstoreOutlined,
  title: ContactsOutlined,
  payment: AccountBookOutlined,
  settings: SettingOutlined,
  taxpayer: ApartmentOutlined,
  employee: TeamOutlined,
  authority: SafetyCertificateOutlined,
};

export function MenuIcon({ name }: { name: IconName }) {
  const Icon = ICONS[name];
  return <Icon />;
}
