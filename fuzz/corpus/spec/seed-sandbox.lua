-- What the sandbox allows, and errors caught by pcall.
local ok, msg = pcall(function() return h.so end)
assert(not ok)
ok, msg = pcall(function() return Txn + Obj end)
assert(not ok and msg:sub(1, 1) ~= "")
ok, msg = xpcall(function() error({}) end, function(m) return "handled" end)
assert(not ok and msg == "handled")
assert(getmetatable(Txn) == false and getmetatable("") == false and getmetatable(TRUE) == false)
local Class = {}
Class.__index = Class
function Class.new(v) return setmetatable({ v = v }, Class) end
function Class:get() return self.v end
assert(Class.new(3):get() == 3 and getmetatable(Class.new(1)) == Class)
local t = {}
table.insert(t, "a")
table.insert(t, 1, "b")
assert(table.remove(t, 1) == "b" and table.concat(t) == "a")
assert(("x"):rep(3, ",") == "x,x,x" and string.format("%d", 4) == "4")
assert(select("#", table.unpack({ 1, 2, 3 })) == 3 and utf8.char(72) == "H")
assert(math.max(1, 2) == 2 and #tostring(Txn) > 0)
print("sandbox seed", 1, nil, Txn)
assert(not pcall(string.find, "a", "a"))
assert(not pcall(setmetatable, {}, { __gc = true }))
for k, v in pairs({ a = 1 }) do assert(k == "a" and v == 1) end
for i, v in ipairs({ 1 }) do assert(i == v) end
local closed = false
do
  local x <close> = nil
end
