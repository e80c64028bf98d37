import { lazy } from 'react';
import type { DialogRegistry } from '../components/dialog-host/index.ts';

// Global dialogs by kind (spec §2); each is its own chunk, loaded when first opened.
export const DIALOGS: DialogRegistry = {
  'phone-verify': lazy(() => import('../features/auth/components/phone-verify-dialog.tsx')),
  'change-password': lazy(() => import('../features/auth/components/change-password-modal.tsx')),
  'public-notice': lazy(() => import('../features/notices/public-notice-dialog.tsx')),
  'contact-us': lazy(() => import('./layouts/console/contact-us-dialog.tsx')),
  'summary-guide': lazy(() => import('../features/session/components/summary-guide-dialog.tsx')),
  'small-scale-notice': lazy(() => import('../features/home/small-scale-notice-dialog.tsx')),
  'real-name': lazy(() => import('../features/real-name/components/real-name-host-dialog.tsx')),
};
