import type { ReactNode } from 'react';
import { Card, Flex, theme } from 'antd';

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
          {/* Plain elements drawn as antd's Typography (which would bring its editor and Input to every screen). */}
          <h4 className="gs-page-title">{title}</h4>
          <span className="gs-page-description">{description}</span>
        </div>
        {extra}
      </Flex>
    </Card>
  );
}
