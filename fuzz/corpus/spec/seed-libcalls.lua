-- framework "none": no standard library, so that mutations run fast.
-- Library calls with extreme arguments: each must end within the budget.
local big = string.rep("a", 1 << 16)
local t = setmetatable({}, {__index = table.concat, __len = function() return math.maxinteger end})
print(pcall(table.unpack, t, 1, 1e6))
print(pcall(table.sort, {big, big .. "", big .. "b", big}))
print(pcall(string.byte, big, 1, -1))
print(pcall(utf8.len, string.rep("\x80", 1 << 16)))
print(pcall(utf8.offset, big, -1))
print(pcall(utf8.codepoint, big, 1, -1))
print(pcall(utf8.char, 0x7FFFFFFF, 0, 0x10FFFF))
for _, c in utf8.codes("a\u{e9}\u{10FFFF}") do print(c) end
print(pcall(string.format, "%99.99f %-99s %q", -math.huge, "", big))
print(pcall(tonumber, string.rep(" ", 1 << 16)), tonumber("z", 36), select("#", select(-1, 1, 2)))
print(string.upper(big):len(), string.lower(big):len(), string.reverse(big):len(), big:sub(-3, -1))
print(next({}), rawlen(big), rawequal(big, big), math.fmod(7, 3), math.random(1, 1))
-- Past the budget: each of these ends the spec.
print(pcall(string.rep, "", math.maxinteger))
print(pcall(string.rep, "", math.maxinteger, ""))
print(pcall(table.concat, t, "", 1, math.maxinteger))
print(pcall(table.sort, t))
