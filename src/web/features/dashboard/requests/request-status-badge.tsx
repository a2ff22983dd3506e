import { useTranslation } from 'react-i18next';
import type { TRequestStatus } from '../../../../contract/constants.js';
import { Badge } from '../../../components/badge';

/** A request's status as a coloured label with its text: pending amber, completed green, expired grey. */
export function RequestStatusBadge({ status }: { status: TRequestStatus }) {
  const { t } = useTranslation();
  return (
    <Badge tone={status} dot data-testid="request-status" data-status={status}>
      {t(`requests.status.${status}`)}
    </Badge>
  );
}
