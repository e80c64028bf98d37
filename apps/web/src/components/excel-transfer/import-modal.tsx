import { InboxOutlined } from '@ant-design/icons';
import { CATALOG_CODE } from '@kaipiao/shared/errors/codes';
import { IMPORT_LIMITS, type ImportResult, type ImportRowError } from '@kaipiao/shared/schemas/goods';
import { Alert, Button, Modal, Space, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { toastSuccess } from '../../lib/antd/feedback.ts';
import { isApiError } from '../../lib/api-error.ts';
import { downloadFile, uploadFile } from '../../lib/file-transfer.ts';

export type ImportModalProps = {
  open: boolean;
  title: string;
  uploadPath: string;
  templatePath: string;
  templateName: string;
  onClose: () => void;
  onImported: (result: ImportResult) => void;
};

const MAX_BYTES = IMPORT_LIMITS.fileMb * 1024 * 1024;

/**
 * Excel import: pick an .xlsx, upload, and either a success summary or the rows to fix. The server
 * writes nothing unless every row is valid, so the clerk fixes the file and uploads it again.
 */
export function ImportModal({
  open,
  title,
  uploadPath,
  templatePath,
  templateName,
  onClose,
  onImported,
}: ImportModalProps) {
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [rowErrors, setRowErrors] = useState<ImportRowError[]>([]);

  const reset = () => {
    setFile(null);
    setFailure(null);
    setRowErrors([]);
  };

  async function submit() {
    if (!file) {
      setFailure('请选择要导入的文件');
      return;
    }
    setBusy(true);
    setFailure(null);
    setRowErrors([]);
    try {
      const result = await uploadFile<ImportResult>(uploadPath, file);
      toastSuccess(`导入成功：共${result.total}条，新增${result.created}条，更新${result.updated}条`);
      onImported(result);
      reset();
      onClose();
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
      if (isApiError(error, CATALOG_CODE.IMPORT_ROWS_INVALID)) {
        setRowErrors((error.data as { errors?: ImportRowError[] })?.errors ?? []);
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open={open}
      title={title}
      width={720}
      destroyOnHidden
      onCancel={() => {
        reset();
        onClose();
      }}
      footer={
        <Space>
          <Button
            onClick={() =>
              downloadFile(templatePath, {}, templateName).catch((e: Error) => setFailure(e.message))
            }
          >
            下载导入模板
          </Button>
          <Button
            onClick={() => {
              reset();
              onClose();
            }}
          >
            取消
          </Button>
          <Button type="primary" loading={busy} onClick={submit}>
            开始导入
          </Button>
        </Space>
      }
    >
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Text type="secondary">
          请使用导入模板填写，仅支持 .xlsx 文件，单次最多{IMPORT_LIMITS.rows}
          行。任意一行有误时不会导入任何数据，请按下方提示修改后重新上传。
        </Typography.Text>
        <Upload.Dragger
          accept=".xlsx"
          maxCount={1}
          fileList={file ? [{ uid: 'file', name: file.name, status: 'done' }] : []}
          beforeUpload={(f) => {
            if (!/\.xlsx$/i.test(f.name)) setFailure('请上传 .xlsx 格式的 Excel 文件');
            else if (f.size > MAX_BYTES) setFailure(`文件不能超过${IMPORT_LIMITS.fileMb}MB`);
            else {
              setFile(f);
              setFailure(null);
              setRowErrors([]);
            }
            return false;
          }}
          onRemove={() => reset()}
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">点击或拖拽 Excel 文件到此处</p>
        </Upload.Dragger>
        {failure && <Alert type="error" showIcon message={failure} />}
        {rowErrors.length > 0 && (
          <Table<ImportRowError>
            size="small"
            rowKey={(r) => `${r.row}-${r.column}-${r.message}`}
            dataSource={rowErrors}
            pagination={{ pageSize: 10, hideOnSinglePage: true }}
            columns={[
              { title: '行号', dataIndex: 'row', width: 80 },
              { title: '列', dataIndex: 'column', width: 140 },
              { title: '错误说明', dataIndex: 'message' },
            ]}
          />
        )}
      </Space>
    </Modal>
  );
}
