/**
 * Video tasks as a table (the Tasks view and a user's recent tasks). A failed task whose credits
 * were not given back offers 'Refund N credits'; the server's once-only refund makes a second
 * attempt fail with its message rather than pay twice.
 */
import type { ReactNode } from 'react';
import type { AdminTask } from '../../../server/contracts/admin.ts';
import { refundTask } from '../../lib/admin-api.ts';
import { useConfirmAction } from './ActionDialog.tsx';
import Badge, { humanize, taskTone } from './Badge.tsx';
import { formatCredits, formatDateTime, shorten } from './format.ts';
import { userHref } from './route.ts';
import TableScroll from './TableScroll.tsx';

interface TaskTableProps {
  tasks: AdminTask[];
  captionId: string;
  caption: ReactNode;
  /** The Tasks view names each task's user; a user's own panel does not need to. */
  showUser: boolean;
  busy?: boolean;
  /** Refresh whatever shows this task and the user's balance. */
  onRefunded: () => void;
}

const MODE_LABELS: Record<AdminTask['mode'], string> = {
  text: 'Text to Video',
  image: 'Image to Video',
};

export default function TaskTable({
  tasks,
  captionId,
  caption,
  showUser,
  busy = false,
  onRefunded,
}: TaskTableProps) {
  const confirmAction = useConfirmAction();

  const askRefund = (task: AdminTask) => {
    const credits = formatCredits(task.credits_cost);
    confirmAction({
      question: `Refund ${credits} to ${task.user_email}?`,
      details: (
        <>
          <p>
            For the failed task “{shorten(task.prompt, 120)}” of {formatDateTime(task.created_at)}.
          </p>
          <p>
            {task.user_email} gets {credits} back in a ledger entry for this task. A task can be
            refunded only once.
          </p>
        </>
      ),
      confirmLabel: `Refund ${credits}`,
      run: async () => {
        const result = await refundTask(task.id);
        return (
          result.message ||
          `Refunded ${credits} to ${task.user_email}. New balance: ${formatCredits(result.transaction.balance_after)}.`
        );
      },
      onDone: onRefunded,
    });
  };

  return (
    <TableScroll captionId={captionId} busy={busy}>
      <table className="admin-table" role="table">
        <caption id={captionId}>{caption}</caption>
        <thead role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader">
              Created
            </th>
            {showUser && (
              <th scope="col" role="columnheader">
                User
              </th>
            )}
            <th scope="col" role="columnheader">
              Prompt
            </th>
            <th scope="col" role="columnheader">
              Status
            </th>
            <th scope="col" role="columnheader" className="is-numeric">
              Credits
            </th>
            <th scope="col" role="columnheader">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody role="rowgroup">
          {tasks.map((task) => {
            const refundable = task.status === 'failed' && !task.refunded;
            return (
              <tr role="row" key={task.id} data-testid="admin-task-row">
                <td role="cell" data-label="Created" className="is-nowrap">
                  <time dateTime={task.created_at}>{formatDateTime(task.created_at)}</time>
                </td>
                {showUser && (
                  <td role="cell" data-label="User" className="is-wide">
                    <a href={userHref(task.user_id)}>{task.user_email}</a>
                  </td>
                )}
                <td role="cell" data-label="Prompt" className="admin-table__prompt">
                  <span title={task.prompt}>{shorten(task.prompt)}</span>
                  <span className="admin-table__sub">{MODE_LABELS[task.mode] ?? task.mode}</span>
                  {task.error && <span className="admin-table__error">{task.error}</span>}
                </td>
                <td role="cell" data-label="Status">
                  <span className="admin-badges">
                    <Badge tone={taskTone(task.status)}>{humanize(task.status)}</Badge>
                    {task.refunded && <Badge tone="neutral">Refunded</Badge>}
                  </span>
                </td>
                <td role="cell" data-label="Credits" className="is-numeric">
                  {task.credits_cost.toLocaleString()}
                </td>
                <td role="cell" className="is-actions">
                  {refundable && (
                    <button
                      type="button"
                      className="btn btn-secondary btn-sm"
                      onClick={() => askRefund(task)}
                    >
                      Refund {formatCredits(task.credits_cost)}
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
}
