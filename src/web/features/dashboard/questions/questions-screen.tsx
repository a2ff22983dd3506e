import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { TQuestion } from '../../../../contract/api/questions.schema.js';
import type { TLanguage } from '../../../../contract/constants.js';
import { questionTextIn } from '../../../../contract/question-text.js';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { ConfirmDialog } from '../../../components/dialog';
import { EmptyState } from '../../../components/empty-state';
import { ErrorState } from '../../../components/error-state';
import { PlusIcon, QuestionsIcon } from '../../../components/icons';
import { PageHeader } from '../../../components/page-header';
import { Seo } from '../../../components/seo';
import { Skeleton } from '../../../components/skeleton';
import { isApiError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';
import { useRole } from '../../../lib/use-role';
import { errorReasonText } from '../../../lib/error-reason-text';
import { useAddQuestionMutation } from '../api/add-question';
import { isQuestionInUseError, useDeleteQuestionMutation } from '../api/delete-question';
import { useEditQuestionMutation } from '../api/edit-question';
import { questionsKeys, useQuestions } from '../api/list-questions';
import { updateQuestionPosition } from '../api/update-question-position';
import { QUESTION_TEXT_ID, QuestionForm, type QuestionFormTexts } from './question-form';
import { moveQuestion, renumberAfterDelete } from './question-order';
import { ReadOnlyQuestionList, SortableQuestionList } from './sortable-question-list';

function QuestionsSkeleton() {
  return (
    <div className="flex flex-col" aria-hidden="true" data-testid="questions-loading">
      {[0, 1, 2].map((row) => (
        <div key={row} className="flex items-center gap-3 border-b border-gray-100 px-4 py-4 last:border-b-0">
          <Skeleton className="size-6 rounded-full" />
          <Skeleton className="h-4 flex-1" />
          <Skeleton className="h-8 w-28" />
        </div>
      ))}
    </div>
  );
}

/**
 * The questions manager (spec §2, §4, §5, §8): states loading, list, empty, editing and delete
 * confirmation. Adding appends the server's question; reordering applies at once, is saved through
 * update-position (one call at a time, in order) and reloads from the server on failure; deleting
 * renumbers 1..n and saves each changed position.
 */
export function QuestionsScreen() {
  const { t, i18n } = useTranslation();
  const language: TLanguage = i18n.language === 'fr' ? 'fr' : 'en';
  const { user } = useAuth();
  // A viewer reads the questions; writing and ordering them is an editor's (issue 32).
  const canEdit = useRole().can('editQuestions');
  const companyId = user?.company_id ?? '';
  const queryClient = useQueryClient();
  const questions = useQuestions(companyId);
  const addQuestion = useAddQuestionMutation();
  const editQuestion = useEditQuestionMutation();
  const deleteQuestion = useDeleteQuestionMutation();
  const [editing, setEditing] = useState<TQuestion | null>(null);
  const [toDelete, setToDelete] = useState<TQuestion | null>(null);
  const [deleting, setDeleting] = useState(false);
  /** Position updates run one after the other, in the order they were made. */
  const positionQueue = useRef<Promise<unknown>>(Promise.resolve());
  const listKey = questionsKeys.list(companyId);
  const list = questions.data ?? [];

  useEffect(() => {
    if (questions.error) console.warn('GET /api/questions/list failed.', questions.error);
  }, [questions.error]);

  const reload = () => queryClient.invalidateQueries({ queryKey: listKey });

  const enqueue = <T,>(work: () => Promise<T>): Promise<T> => {
    const run = positionQueue.current.then(work, work);
    positionQueue.current = run.catch(() => undefined);
    return run;
  };

  const onSave = async (texts: QuestionFormTexts): Promise<boolean> => {
    try {
      if (editing) {
        await editQuestion.mutateAsync({ id: editing.id, company_id: companyId, ...texts });
        toast.success(t('questions.toast.updated'));
        setEditing(null);
      } else {
        await addQuestion.mutateAsync({ company_id: companyId, ...texts, order_position: list.length + 1 });
        toast.success(t('questions.toast.added'));
      }
      return true;
    } catch (error) {
      console.warn('Saving the question failed.', error);
      // A refusal with a reason (both texts empty, say) is said as such; anything else, as the spec says.
      const reason = isApiError(error) ? errorReasonText(error.reason, error.params, t) : null;
      toast.error(reason ?? t('questions.saveError'));
      return false;
    }
  };

  const onReorder = (from: number, to: number) => {
    const moved = list[from];
    if (!moved) return;
    void queryClient.cancelQueries({ queryKey: listKey });
    queryClient.setQueryData<TQuestion[]>(listKey, moveQuestion(list, from, to));
    enqueue(() =>
      updateQuestionPosition({
        id: moved.id,
        company_id: companyId,
        old_position: from + 1,
        new_position: to + 1,
      }),
    ).catch((error: unknown) => {
      console.warn('Saving the new order failed; reloading the questions.', error);
      toast.error(t('questions.reorderError'));
      void reload();
    });
  };

  const onConfirmDelete = async () => {
    const question = toDelete;
    if (!question || deleting) return;
    setDeleting(true);
    try {
      await deleteQuestion.mutateAsync({ id: question.id, company_id: companyId });
      if (editing?.id === question.id) setEditing(null);
      // Spec §4: renumber 1..n, then save each position that changed.
      const current = queryClient.getQueryData<TQuestion[]>(listKey) ?? list;
      const { questions: renumbered, changes } = renumberAfterDelete(current, question.id);
      queryClient.setQueryData<TQuestion[]>(listKey, renumbered);
      toast.success(t('questions.toast.deleted'));
      try {
        for (const change of changes) {
          await enqueue(() => updateQuestionPosition({ ...change, company_id: companyId }));
        }
      } catch (error) {
        console.warn('Saving the positions after a delete failed.', error);
        toast.error(t('questions.reorderError'));
      }
      void reload();
    } catch (error) {
      console.warn('Deleting the question failed.', error);
      toast.error(isQuestionInUseError(error) ? t('questions.deleteInUse') : t('questions.deleteError'));
    } finally {
      // The modal closes on success and on failure.
      setDeleting(false);
      setToDelete(null);
    }
  };

  const focusForm = () => document.getElementById(QUESTION_TEXT_ID)?.focus();

  let body;
  if (questions.isPending) {
    body = <QuestionsSkeleton />;
  } else if (questions.isError) {
    body = (
      <ErrorState
        className="m-4"
        message={t('questions.loadError')}
        onRetry={() => void questions.refetch()}
        retrying={questions.isFetching}
        data-testid="questions-error"
      />
    );
  } else if (list.length === 0) {
    body = (
      <div data-testid="questions-empty">
        <EmptyState
          icon={<QuestionsIcon className="size-6" />}
          title={t('questions.empty.title')}
          description={<p className="text-sm">{t('questions.empty.description')}</p>}
          action={
            canEdit ? (
              <Button variant="secondary" onClick={focusForm} leadingIcon={<PlusIcon className="size-4" />}>
                {t('questions.empty.action')}
              </Button>
            ) : undefined
          }
        />
      </div>
    );
  } else if (!canEdit) {
    body = <ReadOnlyQuestionList questions={list} />;
  } else {
    body = (
      <SortableQuestionList
        questions={list}
        editingId={editing?.id ?? null}
        onEdit={(question) => setEditing(question)}
        onDelete={(question) => setToDelete(question)}
        onReorder={onReorder}
      />
    );
  }

  return (
    <>
      <Seo title={t('questions.title')} description={t('questions.description')} robots="noindex" />
      <PageHeader title={t('questions.title')} description={t('questions.description')} />

      {canEdit && (
      <Card className="mb-6" padding="none">
        <div className="p-4 sm:p-6">
          <QuestionForm
            key={editing?.id ?? 'new'}
            initialTexts={editing ?? undefined}
            editing={editing !== null}
            pending={addQuestion.isPending || editQuestion.isPending}
            onSave={onSave}
            onCancel={() => setEditing(null)}
          />
        </div>
      </Card>
      )}

      <Card padding="none" className="overflow-hidden">
        <div className="flex flex-wrap items-baseline justify-between gap-2 border-b border-gray-200 bg-gray-50 px-4 py-3 sm:px-6">
          <h2 className="text-sm font-semibold text-gray-900">
            {t('questions.list.title')}
            {list.length > 0 && <span className="ml-2 font-normal text-gray-500 tabular-nums">{list.length}</span>}
          </h2>
          {list.length > 1 && <p className="text-xs text-gray-500">{t('questions.list.dragHint')}</p>}
        </div>
        {body}
      </Card>

      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => {
          if (!open && !deleting) setToDelete(null);
        }}
        title={t('questions.deleteDialog.title')}
        description={t('questions.deleteDialog.description')}
        confirmLabel={t('questions.deleteDialog.confirm')}
        tone="danger"
        pending={deleting}
        onConfirm={() => void onConfirmDelete()}
        data-testid="delete-question-dialog"
      >
        {toDelete && (
          <blockquote className="rounded-control border border-gray-200 bg-gray-50 px-3 py-2 text-sm break-words text-gray-800">
            {questionTextIn(toDelete, language)}
          </blockquote>
        )}
      </ConfirmDialog>
    </>
  );
}
