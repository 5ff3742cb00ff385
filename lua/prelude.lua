-- Helpers available to every spec file. Plain Lua over the built-in
-- operators; see docs/spec-language.md.

-- The order-greatest element of the set S (empty when S is empty):
-- the elements of S with no successor in S.
function maxof(order, S)
  return S - (order .. S)
end

-- r? : the reflexive closure of r on transactions (r + iden).
function opt(r)
  return r + iden
end
