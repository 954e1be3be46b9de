import { Card, Flex, Tabs } from 'antd';
import { FileSyncOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { ReportJobsTab } from './ReportJobsTab.tsx';
import { SchedulesTab } from './SchedulesTab.tsx';

/**
 * /data/reportform, the report centre (spec §2 /data report, reportform): the caller's report jobs (long reports
 * made in the background, downloaded when done) and his scheduled reports (mailed to a contact group). The tab is
 * in the address (?tab=schedules), each tab's list state too.
 */
export default function ReportCentrePage() {
  const { t } = useTranslation('reportJobs');
  const [search, setSearch] = useSearchParams();
  const tab = search.get('tab') === 'schedules' ? 'schedules' : 'jobs';
  return (
    <Flex vertical gap={16}>
      <PageHeaderCard icon={<FileSyncOutlined />} title={t('title')} description={t('description')} />
      <Card variant="borderless" styles={{ body: { paddingTop: 4, paddingBottom: 8 } }}>
        <Tabs
          activeKey={tab}
          destroyOnHidden
          onChange={(k) => setSearch(k === 'jobs' ? {} : { tab: k }, { replace: true })}
          items={[
            { key: 'jobs', label: t('tabs.jobs'), children: <ReportJobsTab /> },
            { key: 'schedules', label: t('tabs.schedules'), children: <SchedulesTab /> },
          ]}
        />
      </Card>
    </Flex>
  );
}
