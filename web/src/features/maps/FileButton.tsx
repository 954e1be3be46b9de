import { useRef, type ReactNode } from 'react';
import { Button } from 'antd';
import { CloudUploadOutlined } from '@ant-design/icons';

/** Picks a file with a hidden input; calls back with it. */
export function FileButton({
  accept,
  onFile,
  children,
  testId,
  loading,
}: {
  accept: string;
  onFile: (f: File) => void;
  children: ReactNode;
  testId: string;
  loading?: boolean;
}) {
  const input = useRef<HTMLInputElement | null>(null);
  return (
    <>
      <input
        ref={input}
        type="file"
        accept={accept}
        hidden
        data-testid={`${testId}-input`}
        onChange={(e) => {
          const f = e.target.files?.[0];
          e.target.value = '';
          if (f) onFile(f);
        }}
      />
      <Button
        icon={<CloudUploadOutlined />}
        loading={loading}
        onClick={() => input.current?.click()}
        data-testid={testId}
      >
        {children}
      </Button>
    </>
  );
}
