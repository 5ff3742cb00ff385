while true do pcall(function() while trua do end end) end
