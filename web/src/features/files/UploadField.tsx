import { useMemo, useRef, useState, type ChangeEvent } from 'react';
import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Flex, Image, Progress, Tooltip, Typography, message, theme } from 'antd';
import { DeleteOutlined, FileOutlined, FilePdfOutlined, FileWordOutlined, UploadOutlined } from '@ant-design/icons';
import {
  FILE_TYPES,
  UPLOAD_RULES,
  filesRoutes,
  uploadAccept,
  type FileType,
  type UploadKind,
} from '@geosentry/contract';
import { call, isCancel } from '../../shared/api.ts';
import { checkUpload, fileHref, typeOfName, uploadFiles } from './uploadFiles.ts';

/** What the field knows of a file beside its id (for names and icons). */
export interface KnownFile {
  file_id: string;
  name?: string | undefined;
  mime?: string | undefined;
}

export interface UploadFieldProps {
  /** The file ids held (antd Form value). */
  value?: string[] | undefined;
  onChange?: (ids: string[]) => void;
  /** picture: one jpg/png/gif/bmp per upload; document: Word or PDF; attachment: Word, PDF, jpg or png. */
  kind: UploadKind;
  /** How many files the field may hold: default 3, 1 for a picture. */
  max?: number | undefined;
  /** Attach the uploads to this site (only its viewers may then read them). */
  platformId?: number | undefined;
  /** Names of files already held, when the caller knows them (otherwise they are looked up). */
  known?: readonly KnownFile[] | undefined;
  disabled?: boolean | undefined;
  id?: string | undefined;
}

interface Meta {
  name: string;
  type: FileType | null;
}

const typeOfMime = (mime: string | undefined): FileType | null =>
  (Object.entries(FILE_TYPES).find(([, v]) => v.mime === mime)?.[0] as FileType | undefined) ?? null;

function FileIcon({ type }: { type: FileType | null }) {
  if (type === 'pdf') return <FilePdfOutlined style={{ color: '#d4380d' }} />;
  if (type === 'doc' || type === 'docx') return <FileWordOutlined style={{ color: '#1677ff' }} />;
  return <FileOutlined />;
}

/**
 * A form control for uploads (spec §5): checks count, type and size in the browser, sends the files to
 * /api/v2/file/upload with progress, and holds the uploaded file ids. Pictures show as thumbnails, other
 * files as names with download links; each can be removed.
 */
export function UploadField({ value, onChange, kind, max, platformId, known, disabled, id }: UploadFieldProps) {
  const { t } = useTranslation('files');
  const { token } = theme.useToken();
  const [msg, msgHolder] = message.useMessage();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [uploaded, setUploaded] = useState<Record<string, Meta>>({});
  const ids = useMemo(() => value ?? [], [value]);
  const limit = max ?? (kind === 'picture' ? 1 : 3);
  const room = Math.max(0, limit - ids.length);
  const perRequest = Math.min(UPLOAD_RULES[kind].maxFiles, room);

  const knownMeta = useMemo(() => {
    const m: Record<string, Meta> = {};
    for (const k of known ?? [])
      if (k.name) m[k.file_id] = { name: k.name, type: typeOfMime(k.mime) ?? typeOfName(k.name) };
    return { ...m, ...uploaded };
  }, [known, uploaded]);

  // Files whose names are not known yet are looked up (getDocument answers the stored file's description).
  const unknown = ids.filter((i) => !knownMeta[i]);
  const lookups = useQueries({
    queries: unknown.map((fileId) => ({
      queryKey: ['files', 'document', fileId],
      queryFn: () => call(filesRoutes.getDocument, { file_id: fileId }, { silent: true, keepEarlier: true }),
      staleTime: 5 * 60_000,
      retry: false,
    })),
  });
  const metaOf = (fileId: string): Meta => {
    const k = knownMeta[fileId];
    if (k) return k;
    const file = lookups[unknown.indexOf(fileId)]?.data?.[0]?.file;
    if (file) return { name: file.name, type: file.ext };
    return { name: fileId, type: kind === 'picture' ? 'jpg' : null };
  };

  const onPick = async (e: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(e.target.files ?? []);
    e.target.value = '';
    if (files.length === 0) return;
    const problem = checkUpload(kind, files, room);
    if (problem) {
      void msg.error(problem);
      return;
    }
    setProgress(0);
    try {
      const answer = await uploadFiles(kind, files, { platformId, onProgress: setProgress });
      const fresh = answer.files.length > 0 ? answer.files : [answer];
      setUploaded((u) => {
        const next = { ...u };
        for (const f of fresh) next[f.fileId] = { name: f.name, type: f.ext };
        return next;
      });
      onChange?.([...ids, ...fresh.map((f) => f.fileId).filter((f) => !ids.includes(f))]);
      void msg.success(t('uploaded'));
    } catch (err) {
      if (!isCancel(err)) void msg.error((err as Error).message || t('errors.failed'));
    } finally {
      setProgress(null);
    }
  };

  const remove = (fileId: string) => onChange?.(ids.filter((i) => i !== fileId));
  const isPicture = (m: Meta) => (m.type ? FILE_TYPES[m.type].image : kind === 'picture');
  const pictures = ids.filter((i) => isPicture(metaOf(i)));
  const documents = ids.filter((i) => !isPicture(metaOf(i)));
  const busy = progress !== null;

  return (
    <Flex vertical gap={8} data-testid="upload-field">
      {msgHolder}
      {pictures.length > 0 ? (
        <Flex gap={8} wrap>
          <Image.PreviewGroup>
            {pictures.map((fileId) => {
              const m = metaOf(fileId);
              return (
                <div
                  key={fileId}
                  data-testid="upload-picture"
                  style={{
                    position: 'relative',
                    width: 104,
                    height: 104,
                    padding: 4,
                    border: `1px solid ${token.colorBorder}`,
                    borderRadius: token.borderRadiusLG,
                    background: token.colorBgContainer,
                  }}
                >
                  <Image
                    src={fileHref(fileId)}
                    alt={m.name}
                    width={94}
                    height={94}
                    style={{ objectFit: 'cover', borderRadius: token.borderRadius }}
                  />
                  {disabled ? null : (
                    <Tooltip title={t('remove')}>
                      <Button
                        size="small"
                        shape="circle"
                        danger
                        icon={<DeleteOutlined />}
                        aria-label={t('remove')}
                        data-testid="upload-remove"
                        onClick={() => remove(fileId)}
                        style={{ position: 'absolute', top: -8, right: -8 }}
                      />
                    </Tooltip>
                  )}
                </div>
              );
            })}
          </Image.PreviewGroup>
        </Flex>
      ) : null}
      {documents.length > 0 ? (
        <Flex vertical gap={4}>
          {documents.map((fileId) => {
            const m = metaOf(fileId);
            return (
              <Flex key={fileId} align="center" gap={8} data-testid="upload-document">
                <FileIcon type={m.type} />
                <Typography.Link href={fileHref(fileId, true)} download={m.name} ellipsis style={{ maxWidth: 320 }}>
                  {m.name}
                </Typography.Link>
                {disabled ? null : (
                  <Button
                    type="text"
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('remove')}
                    data-testid="upload-remove"
                    onClick={() => remove(fileId)}
                  />
                )}
              </Flex>
            );
          })}
        </Flex>
      ) : null}
      {busy ? (
        <Progress percent={progress} size="small" data-testid="upload-progress" style={{ maxWidth: 320 }} />
      ) : null}
      {disabled ? null : (
        <Flex align="center" gap={8} wrap>
          <input
            ref={input}
            type="file"
            style={{ display: 'none' }}
            data-testid="upload-input"
            accept={uploadAccept(kind)}
            multiple={perRequest > 1}
            disabled={busy || room === 0}
            onChange={(e) => void onPick(e)}
          />
          <Button
            id={id}
            icon={<UploadOutlined />}
            loading={busy}
            disabled={room === 0}
            onClick={() => input.current?.click()}
          >
            {t(`choose.${kind}`)}
          </Button>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {room === 0 ? t('hint.full', { max: limit }) : t(`hint.${kind}`, { max: limit })}
          </Typography.Text>
        </Flex>
      )}
    </Flex>
  );
}
