export { DeviceAuthPrompt } from './components/device-auth-prompt.tsx';
export {
  RealNameDialog,
  type RealNameDialogData,
  type RealNameDialogProps,
} from './components/real-name-dialog.tsx';
export { type DeviceAuthPromptState, useDeviceAuthSocket } from './hooks/use-device-auth-socket.ts';
