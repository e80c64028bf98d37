import { Modal, message } from 'antd';
import './setup.tsx';

export function alertError(title: string, content: string, onOk?: () => void) {
  Modal.error({ title, content, onOk, okText: '确定' });
}

export function toastError(content: string) {
  void message.error(content);
}

export function toastSuccess(content: string) {
  void message.success(content);
}
