-- A name prefix as an index range in every plan (src/db/sql/customer-search.sql.ts). `key LIKE $1` becomes a
-- range of customers_search_*_name_idx only when the planner sees the pattern as a constant: in a plan made for
-- any value (a generic plan, which PostgreSQL chose for the service's searches) it walked the index from the
-- environment's first name, folding every name on the way (36 ms a page at 10,000 customers, seconds at a
-- million). Written as a range, `prefix <= key < successor(prefix)` in the index's byte order, its bounds are
-- index conditions whatever the plan.
--
-- The successor of a prefix: the least text greater than every text that starts with it (its last character
-- raised by one, trailing U+10FFFF dropped first; U+D7FF is followed by U+E000, surrogates being no characters).
-- NULL for a prefix of U+10FFFF alone, which no name starts with.
CREATE FUNCTION "cas_prefix_successor"(prefix text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
    RETURN (
        SELECT CASE
                   WHEN t = '' THEN NULL
                   WHEN ascii(right(t, 1)) = 55295 THEN left(t, -1) || chr(57344)
                   ELSE left(t, -1) || chr(ascii(right(t, 1)) + 1)
               END
        FROM (SELECT rtrim(prefix, U&'\+10FFFF') AS t) AS trimmed
    );
