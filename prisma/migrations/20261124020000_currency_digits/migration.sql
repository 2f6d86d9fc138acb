-- ISO 4217 minor-unit digits, for the ledger's posting statement: it checks an amount's precision against
-- the currency of the account it locked, without a read before the write. The same table as the
-- currency-codes package the service validates with (src/domain/ledger/money.ts);
-- test/db/currency-digits.test.ts fails when the two disagree for any code.
CREATE FUNCTION "currency_minor_digits"(code CHAR(3)) RETURNS INTEGER
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN CASE
        WHEN code IN ('BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'UYI', 'VND', 'VUV',
                      'XAF', 'XAG', 'XAU', 'XBA', 'XBB', 'XBC', 'XBD', 'XDR', 'XOF', 'XPD', 'XPF', 'XPT', 'XSU', 'XTS',
                      'XUA', 'XXX') THEN 0
        WHEN code IN ('BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND') THEN 3
        WHEN code IN ('CLF', 'UYW') THEN 4
        ELSE 2
    END;
