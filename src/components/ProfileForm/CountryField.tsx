import { useId, useMemo } from 'react';
import { useStrings } from '../../config/PlatformProvider';
import * as styles from '../AccountPanel/AccountPanel.css';

/** The 249 officially assigned ISO 3166-1 alpha-2 codes (the profile's country_code, product-rules §3). */
export const COUNTRY_CODES: readonly string[] = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS ' +
  'BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE ' +
  'EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM ' +
  'HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC ' +
  'LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA ' +
  'NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW ' +
  'SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO ' +
  'TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ');

/** Country options named in the reader's language (Intl.DisplayNames), sorted by that name. */
export function countryOptions(locale: string | undefined): Array<{ code: string; name: string }> {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames(locale ? [locale] : undefined, { type: 'region' });
  } catch {
    names = null;
  }
  return COUNTRY_CODES.map((code) => ({ code, name: names?.of(code) ?? code })).sort((a, b) => a.name.localeCompare(b.name, locale));
}

export interface CountryFieldProps {
  label: string;
  /** An ISO code ('DE'), or '' for none. */
  value: string;
  onValueChange: (value: string) => void;
  error?: string;
  disabled?: boolean;
}

/**
 * The profile's country as a picker of ISO 3166 countries with localised names: the server keeps
 * two-letter codes, which nobody should have to type. A stored code outside the list stays
 * selectable so saving does not silently drop it.
 */
export function CountryField({ label, value, onValueChange, error, disabled }: CountryFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const none = useStrings().account.countryNone;
  const locale = typeof navigator === 'undefined' ? undefined : navigator.language;
  const options = useMemo(() => countryOptions(locale), [locale]);
  const code = value.toUpperCase();
  const known = code === '' || COUNTRY_CODES.includes(code);
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        className={styles.input}
        value={code}
        autoComplete="country"
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(e) => onValueChange(e.target.value)}
      >
        <option value="">{none}</option>
        {known ? null : <option value={code}>{code}</option>}
        {options.map((o) => (
          <option key={o.code} value={o.code}>
            {o.name}
          </option>
        ))}
      </select>
      {error && (
        <p id={errorId} className={styles.errorText}>
          {error}
        </p>
      )}
    </div>
  );
}
