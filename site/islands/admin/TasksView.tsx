/** Tasks: every user's video tasks, newest first, filtered by status and paged. */
import { useCallback, useState } from 'react';
import type { AdminTaskStatus } from '../../../shared/api/admin.ts';
import { ADMIN_PAGE_SIZE } from '../../../shared/admin.ts';
import { listTasks, type Page } from '../../lib/api/admin.ts';
import AdminView from './AdminView.tsx';
import { Empty } from './ListStates.tsx';
import PagedTable from './PagedTable.tsx';
import { TASK_ROW_TEST_ID, useTaskTable } from './TaskTable.tsx';
import { usePagedList } from './use-admin-data.ts';

const CAPTION_ID = 'admin-tasks-caption';

const FILTERS: { value: AdminTaskStatus | ''; label: string }[] = [
  { value: '', label: 'All statuses' },
  { value: 'pending', label: 'Pending' },
  { value: 'processing', label: 'Processing' },
  { value: 'completed', label: 'Completed' },
  { value: 'failed', label: 'Failed' },
];

export default function TasksView() {
  const [status, setStatus] = useState<AdminTaskStatus | ''>('');
  const fetchPage = useCallback((page: Page) => listTasks(status || null, page), [status]);
  const list = usePagedList(fetchPage, ADMIN_PAGE_SIZE);
  const taskTable = useTaskTable(true, list.reload, CAPTION_ID);
  const filterLabel = FILTERS.find((filter) => filter.value === status)?.label ?? '';

  const filter = (
    <div className="admin-toolbar">
      <label className="admin-toolbar__field">
        <span>Status</span>
        <select
          className="input select admin-select"
          value={status}
          onChange={(event) => {
            setStatus(event.target.value as AdminTaskStatus | '');
            list.reset();
          }}
        >
          {FILTERS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </label>
    </div>
  );

  return (
    <AdminView title="Tasks" tools={filter}>
      <PagedTable
        list={list}
        rowsOf={(data) => data.tasks}
        what="tasks"
        empty={
          <Empty title={status ? `No ${filterLabel.toLowerCase()} tasks.` : 'No video tasks yet.'}>
            {status
              ? 'Choose another status to see other tasks.'
              : 'Tasks appear here as soon as someone generates a video.'}
          </Empty>
        }
        {...taskTable}
        captionId={CAPTION_ID}
        caption={`${status ? filterLabel : 'All'} tasks, newest first`}
        rowTestId={TASK_ROW_TEST_ID}
        pagerLabel="Tasks"
      />
    </AdminView>
  );
}
