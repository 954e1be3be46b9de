import type { Key, ReactElement, ReactNode } from 'react';

export interface SimpleColumn<T> {
  key: string;
  title: ReactNode;
  render: (row: T) => ReactNode;
  align?: 'left' | 'right' | 'center';
}

/**
 * A small fixed table (a report's summary rows): a plain HTML table drawn as antd's small table, without its
 * paging, sorting, filters and their code. Lists of records use ServerTable (shared/table).
 */
export function SimpleTable<T>({
  columns,
  rows,
  rowKey,
  empty,
  'data-testid': testId,
}: {
  columns: SimpleColumn<T>[];
  rows: readonly T[];
  rowKey: (row: T) => Key;
  /** Shown in place of the rows when there are none. */
  empty?: ReactNode;
  'data-testid'?: string;
}): ReactElement {
  return (
    <div className="gs-simple-table" data-testid={testId}>
      <table>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} style={{ textAlign: c.align ?? 'left' }} scope="col">
                {c.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="gs-simple-table-empty">
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={rowKey(row)}>
                {columns.map((c) => (
                  <td key={c.key} style={{ textAlign: c.align ?? 'left' }}>
                    {c.render(row)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
