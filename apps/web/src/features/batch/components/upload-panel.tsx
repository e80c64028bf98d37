import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { TERMS } from '@kaipiao/shared/glossary/terms';
import {
  BATCH_LIMITS,
  type BatchDryRun,
  type BatchIssue,
  type BatchReport,
} from '@kaipiao/shared/schemas/batch';
import { type InvoiceType, SPECIAL_INVOICE_TYPES, type TaxEquipment } from '@kaipiao/shared/schemas/invoice';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Checkbox,
  Col,
  Form,
  Radio,
  Row,
  Select,
  Space,
  Table,
  Typography,
  Upload,
} from 'antd';
import { useEffect, useState } from 'react';
import { taxEquipmentQuery } from '../../../api/equipment.ts';
import { DeviceOption, DeviceValue } from '../../../components/device-label/device-label.tsx';
import { WhyDisabled } from '../../../components/why-disabled.tsx';
import { alertError } from '../../../lib/antd/feedback.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { downloadTemplate, uploadBatch } from '../api/batch.ts';

/** Batches are mostly 普票: the first ordinary kind of the device is the default. */
function defaultKind(d: TaxEquipment | undefined): string | null {
  const types = d?.invoice_types ?? [];
  return (
    (types.find((t) => !SPECIAL_INVOICE_TYPES.includes(t.code as InvoiceType)) ?? types[0])?.code ?? null
  );
}

type Props = { storeId: number; disabled: boolean; onUploaded: (dryRun: BatchDryRun) => void };

const REPORT_COLUMNS = [
  { title: '工作表', dataIndex: 'sheet', width: 100, render: (v: string) => v || '文件' },
  { title: '行号', dataIndex: 'row', width: 80, render: (v: number) => (v > 0 ? v : '—') },
  { title: '列', dataIndex: 'column', width: 150, render: (v: string) => v || '—' },
  { title: '问题', dataIndex: 'message' },
];

/** The validation report of a refused file: every problem with its sheet, row and column. */
export function ReportTable({ report, message }: { report: BatchReport; message: string }) {
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Alert
        type="error"
        showIcon
        message={message}
        description={
          report.error_count > report.errors.length
            ? `共${report.error_count}处问题，下表列出前${report.errors.length}处。`
            : `共${report.error_count}处问题。修改文件后重新上传，不会开具任何发票。`
        }
      />
      <Table<BatchIssue>
        size="small"
        rowKey={(r) => `${r.sheet}-${r.row}-${r.column}-${r.message}`}
        columns={REPORT_COLUMNS}
        dataSource={report.errors}
        pagination={{ pageSize: 10, showSizeChanger: false, showTotal: (n) => `共 ${n} 条` }}
        aria-label="校验报告"
      />
    </Space>
  );
}

/** Step 1–2: download the template, pick device and kind, upload; the report or the dry run. */
export function UploadPanel({ storeId, disabled, onUploaded }: Props) {
  const devices = useQuery(taxEquipmentQuery(storeId));
  const list: readonly TaxEquipment[] = devices.data ?? [];
  const [deviceId, setDeviceId] = useState<number | null>(null);
  const [kind, setKind] = useState<string | null>(null);
  const [sendEmail, setSendEmail] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ message: string; report: BatchReport | null } | null>(null);

  const device = list.find((d) => d.device_id === deviceId);
  useEffect(() => {
    if (device || list.length === 0) return;
    const first = list.find((d) => d.online && !d.locked) ?? list[0]!;
    setDeviceId(first.device_id);
    setKind(defaultKind(first));
  }, [device, list]);

  async function submit() {
    if (!file || !deviceId || !kind) return;
    setBusy(true);
    setFailure(null);
    try {
      const dryRun = await uploadBatch(file, { deviceId, invoiceType: kind, sendEmail });
      setFile(null);
      onUploaded(dryRun);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const data = isApiError(error) ? (error.data as BatchReport | null) : null;
      if (data && Array.isArray(data.errors)) setFailure({ message, report: data });
      else if (isApiError(error) && error.kind === 'code') setFailure({ message, report: null });
      else alertError('上传失败', message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Alert
        type="info"
        showIcon
        message="先下载模板，在“发票信息”表每行填写一张发票，在“商品明细”表按流水号填写商品；上传后系统先校验全部数据，无误后预览并确认再开票。"
        action={
          <Button
            icon={<DownloadOutlined />}
            onClick={() => downloadTemplate().catch((e) => alertError('下载失败', e.message))}
          >
            下载模板
          </Button>
        }
      />
      <Form layout="vertical" disabled={disabled || busy}>
        <Row gutter={16}>
          <Col xs={24} lg={10}>
            <Form.Item label={TERMS.device} required>
              <Select
                aria-label={TERMS.device}
                loading={devices.isLoading}
                value={deviceId ?? undefined}
                placeholder={`请选择${TERMS.device}`}
                onChange={(id: number) => {
                  setDeviceId(id);
                  const next = list.find((d) => d.device_id === id);
                  if (!next?.invoice_types.some((t) => t.code === kind)) setKind(defaultKind(next));
                }}
                options={list.map((d) => ({ value: d.device_id, label: <DeviceOption device={d} /> }))}
                labelRender={({ value, label }) => {
                  const chosen = list.find((d) => d.device_id === value);
                  return chosen ? <DeviceValue device={chosen} /> : label;
                }}
                notFoundContent={`本${TERMS.store}没有可用的${TERMS.device}`}
              />
            </Form.Item>
          </Col>
          <Col xs={24} lg={14}>
            <Form.Item
              label={`默认${TERMS.invoiceKind}`}
              required
              tooltip={`“${TERMS.invoiceKind}”列为空的发票按此开具`}
            >
              <Radio.Group
                aria-label={`默认${TERMS.invoiceKind}`}
                optionType="button"
                buttonStyle="solid"
                value={kind ?? undefined}
                onChange={(e) => setKind(e.target.value)}
                options={(device?.invoice_types ?? []).map((t) => ({ value: t.code, label: t.name }))}
              />
            </Form.Item>
          </Col>
        </Row>
        {device && (
          <Typography.Paragraph type="secondary" style={{ marginTop: -8 }}>
            单张限额 {Number(device.per_invoice_limit).toFixed(2)}{' '}
            元（不含税），超过限额或行数上限的发票将自动拆分。
          </Typography.Paragraph>
        )}
        <Form.Item>
          <Checkbox checked={sendEmail} onChange={(e) => setSendEmail(e.target.checked)}>
            开具后将发票发送到{TERMS.buyer}邮箱
          </Checkbox>
        </Form.Item>
        <Form.Item>
          <Upload.Dragger
            accept=".xlsx"
            multiple={false}
            maxCount={1}
            fileList={file ? [{ uid: 'batch', name: file.name, status: 'done' }] : []}
            beforeUpload={(f) => {
              if (f.size > BATCH_LIMITS.fileMb * 1024 * 1024) {
                alertError('文件过大', `文件不能超过${BATCH_LIMITS.fileMb}MB，请拆分后再上传`);
                return Upload.LIST_IGNORE;
              }
              setFile(f);
              setFailure(null);
              return false;
            }}
            onRemove={() => setFile(null)}
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="ant-upload-text">点击或拖拽填写好的批量开票模板到此处</p>
            <p className="ant-upload-hint">
              仅支持 .xlsx，单次最多 {BATCH_LIMITS.invoices} 张发票、{BATCH_LIMITS.lines} 行商品明细
            </p>
          </Upload.Dragger>
        </Form.Item>
        <WhyDisabled
          beside
          reason={
            !deviceId
              ? `请先选择${TERMS.device}`
              : !kind
                ? `请先选择${TERMS.invoiceKind}`
                : !file && '请先选择填写好的批量开票模板'
          }
        >
          <Button type="primary" loading={busy} onClick={submit}>
            上传并校验
          </Button>
        </WhyDisabled>
      </Form>
      {failure &&
        (failure.report ? (
          <ReportTable report={failure.report} message={failure.message} />
        ) : (
          <Alert type="error" showIcon message={failure.message} />
        ))}
    </Space>
  );
}
