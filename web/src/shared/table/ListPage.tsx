import type { ReactNode } from 'react';
import { Card, Flex } from 'antd';
import { PageHeaderCard } from '../ui/PageHeaderCard.tsx';

export interface ListPageProps {
  icon?: ReactNode;
  title: ReactNode;
  description: ReactNode;
  /** Right of the header card. */
  extra?: ReactNode;
  /** The card's content: a ServerTable (with its filters and actions); drawers and modals may follow. */
  children: ReactNode;
  /** Content between the header and the table card (tabs, summary cards). */
  above?: ReactNode;
}

/**
 * The skeleton of a list screen: the header card (icon, title, one-line description), then one card holding
 * the filter bar and the table (both drawn by ServerTable). See ServerTable.tsx for a complete example.
 */
export function ListPage({ icon, title, description, extra, children, above }: ListPageProps) {
  return (
    <Flex vertical gap={16}>
      <PageHeaderCard icon={icon} title={title} description={description} extra={extra} />
      {above}
      <Card variant="borderless" styles={{ body: { paddingBottom: 8 } }}>
        {children}
      </Card>
    </Flex>
  );
}
