import type { ReactNode } from 'react';
import { Card, Flex, Typography, theme } from 'antd';

export interface PageHeaderCardProps {
  title: ReactNode;
  description: ReactNode;
  icon?: ReactNode;
  extra?: ReactNode;
}

/** The header card of an admin screen: an icon, a title and a one-line description. */
export function PageHeaderCard({ title, description, icon, extra }: PageHeaderCardProps) {
  const { token } = theme.useToken();
  return (
    <Card variant="borderless" styles={{ body: { padding: '16px 24px' } }}>
      <Flex align="center" gap={16} wrap>
        {icon ? (
          <Flex
            align="center"
            justify="center"
            style={{
              width: 44,
              height: 44,
              borderRadius: token.borderRadiusLG,
              background: token.colorPrimaryBg,
              color: token.colorPrimary,
              fontSize: 22,
              flex: 'none',
            }}
          >
            {icon}
          </Flex>
        ) : null}
        <div style={{ flex: 1, minWidth: 200 }}>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {title}
          </Typography.Title>
          <Typography.Text type="secondary">{description}</Typography.Text>
        </div>
        {extra}
      </Flex>
    </Card>
  );
}
