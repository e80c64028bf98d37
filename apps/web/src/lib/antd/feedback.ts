// Error dialogs and messages. antd is loaded on first use, so pages without antd (the login
// page) stay small until something has to be said.
const load = () => import('./feedback-impl.ts');

/** An error dialog with a single OK button (Modal.error). */
export function alertError(title: string, content: string, onOk?: () => void) {
  void load().then((m) => m.alertError(title, content, onOk));
}

export function toastError(content: string) {
  void load().then((m) => m.toastError(content));
}

export function toastSuccess(content: string) {
  void load().then((m) => m.toastSuccess(content));
}
