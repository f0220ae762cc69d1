/** Tasks: every user's video tasks, newest first, filtered by status and paged. */
import { useCallback, useState } from 'react';
import type { AdminTaskStatus } from '../../../server/contracts/admin.ts';
import { listTasks } from '../../lib/admin-api.ts';
import { Empty, Loading, LoadError } from './ListStates.tsx';
import Pager, { rangeText } from './Pager.tsx';
import TaskTable from './TaskTable.tsx';
import { useAdminData } from './use-admin-data.ts';

const PAGE_SIZE = 20;

const FILTERS: { value: AdminTaskStatus | ''; label: string }[] = [
  { value: '', label: 'All statuses' },
  { value: 'pending', label: 'Pending' },
  { value: 'processing', label: 'Processing' },
  { value: 'completed', label: 'Completed' },
  { value: 'failed', label: 'Failed' },
];

export default function TasksView() {
  const [status, setStatus] = useState<AdminTaskStatus | ''>('');
  const [offset, setOffset] = useState(0);
  const load = useCallback(
    () => listTasks(status || null, { offset, limit: PAGE_SIZE }),
    [status, offset],
  );
  const { data, loading, error, reload } = useAdminData(load);
  const filterLabel = FILTERS.find((filter) => filter.value === status)?.label ?? '';

  return (
    <section className="admin-view" aria-labelledby="admin-view-title">
      <div className="admin-view__head">
        <h2 id="admin-view-title" tabIndex={-1}>
          Tasks
        </h2>
        <div className="admin-toolbar">
          <label className="admin-toolbar__field">
            <span>Status</span>
            <select
              className="input admin-select"
              value={status}
              onChange={(event) => {
                setStatus(event.target.value as AdminTaskStatus | '');
                setOffset(0);
              }}
            >
              {FILTERS.map((filter) => (
                <option key={filter.value} value={filter.value}>
                  {filter.label}
                </option>
              ))}
            </select>
          </label>
        </div>
      </div>

      {error ? (
        <LoadError message={error} onRetry={reload} />
      ) : !data ? (
        <Loading what="tasks" />
      ) : data.tasks.length === 0 ? (
        <Empty title={status ? `No ${filterLabel.toLowerCase()} tasks.` : 'No video tasks yet.'}>
          {status
            ? 'Choose another status to see other tasks.'
            : 'Tasks appear here as soon as someone generates a video.'}
        </Empty>
      ) : (
        <>
          <TaskTable
            tasks={data.tasks}
            captionId="admin-tasks-caption"
            caption={`${status ? filterLabel : 'All'} tasks, newest first: ${rangeText(offset, data.tasks.length, data.total)}`}
            showUser
            busy={loading}
            onRefunded={reload}
          />
          <Pager
            label="Tasks"
            offset={offset}
            limit={PAGE_SIZE}
            total={data.total}
            busy={loading}
            onChange={setOffset}
          />
        </>
      )}
    </section>
  );
}
