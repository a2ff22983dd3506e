import { formatPrice } from "../../../../contract/constants.js";
import type { CreditPackage } from "../../../../contract/constants.js";
import { formatPercent } from "../../../lib/format";

/** The figures of a package card in the interface language (spec §9: '250 €' in French, '€250' otherwise). */
export interface PackageFigures {
  total: string;
  unit: string;
  /** '33%' / '33 %', or null for the package without a discount. */
  discount: string | null;
}

export function packageFigures(
  pkg: Pick<CreditPackage, "totalPrice" | "unitPrice" | "discountPercent">,
  lang: string,
): PackageFigures {
  return {
    total: formatPrice(pkg.totalPrice, lang),
    unit: formatPrice(pkg.unitPrice, lang),
    discount:
      pkg.discountPercent > 0 ? formatPercent(pkg.discountPercent, lang) : null,
  };
}
