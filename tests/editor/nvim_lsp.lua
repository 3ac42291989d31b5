-- Drives a real Neovim (0.7 or later) against `mirrorless lsp`, as a user would: open a file,
-- wait for the diagnostics, hover, apply a code action, wait until the buffer lints clean,
-- save it. Run by tests/editor_nvim.rs:
--
--   MIRRORLESS_BIN=… MIRRORLESS_FILE=… MIRRORLESS_RESULT=… MIRRORLESS_ACTION=preferred|TITLE-PREFIX \
--     nvim --headless --clean -c 'luafile tests/editor/nvim_lsp.lua'
--
-- Every observation is written to MIRRORLESS_RESULT as `key=value` lines; the Rust test
-- asserts on them. Neovim exits 0 when the script ran to the end, 1 on any failure.

local result_path = os.getenv('MIRRORLESS_RESULT')
local lines = {}
local function record(key, value)
  table.insert(lines, key .. '=' .. tostring(value))
end
local function finish(code)
  local f = io.open(result_path, 'w')
  f:write(table.concat(lines, '\n') .. '\n')
  f:close()
  vim.cmd(code == 0 and 'qall!' or 'cquit! 1')
end
local function fail(message)
  record('error', message)
  finish(1)
end

local ok, err = pcall(function()
  local file = os.getenv('MIRRORLESS_FILE')
  local root = vim.fn.fnamemodify(file, ':h')
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()
  local config = { name = 'mirrorless', cmd = { os.getenv('MIRRORLESS_BIN'), 'lsp' }, root_dir = root }
  local client_id
  if vim.lsp.start then -- Neovim 0.8+
    client_id = vim.lsp.start(config)
  else
    client_id = vim.lsp.start_client(config)
    vim.lsp.buf_attach_client(bufnr, client_id)
  end
  if not client_id then
    return fail('the language server did not start')
  end
  record('nvim', vim.version().major .. '.' .. vim.version().minor .. '.' .. vim.version().patch)

  if not vim.wait(60000, function() return #vim.diagnostic.get(bufnr) > 0 end, 50) then
    return fail('no diagnostics within 60 s')
  end
  local diags = vim.diagnostic.get(bufnr)
  table.sort(diags, function(a, b) return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col) end)
  record('diagnostics', #diags)
  local d = diags[1]
  -- Neovim converts the server's UTF-16 columns to byte columns itself.
  record('first.line', d.lnum)
  record('first.col', d.col)
  record('first.end_col', d.end_col)
  record('first.code', d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code))
  -- Neovim 0.10+ keeps the server's diagnostic in `user_data.lsp`; 0.7 keeps only its extra
  -- fields there, so the range is converted back to UTF-16 here.
  local lsp_diag = d.user_data and d.user_data.lsp or {}
  if not lsp_diag.range then
    local function utf16(row, col)
      local text = vim.api.nvim_buf_get_lines(bufnr, row, row + 1, false)[1] or ''
      local _, units = vim.str_utfindex(text, math.min(col, #text))
      return { line = row, character = units }
    end
    lsp_diag = vim.tbl_extend('force', lsp_diag, {
      range = { start = utf16(d.lnum, d.col), ['end'] = utf16(d.end_lnum or d.lnum, d.end_col or d.col) },
      message = d.message,
      severity = d.severity,
      source = d.source,
    })
  end

  local client = vim.lsp.get_client_by_id(client_id)
  local uri = vim.uri_from_bufnr(bufnr)
  local hover = client.request_sync('textDocument/hover', {
    textDocument = { uri = uri },
    position = lsp_diag.range.start,
  }, 20000, bufnr)
  local value = hover and hover.result and hover.result.contents and hover.result.contents.value or ''
  record('hover.has_rule', value:find('# ' .. lsp_diag.code, 1, true) ~= nil)

  local response = client.request_sync('textDocument/codeAction', {
    textDocument = { uri = uri },
    range = lsp_diag.range,
    context = { diagnostics = { lsp_diag } },
  }, 20000, bufnr)
  if not response or response.err then
    return fail('codeAction failed: ' .. vim.inspect(response))
  end
  local actions = response.result or {}
  record('actions', #actions)
  local wanted = os.getenv('MIRRORLESS_ACTION') or ''
  local chosen
  for _, a in ipairs(actions) do
    local fits
    if wanted == 'preferred' then
      fits = a.isPreferred == true
    else
      fits = a.title:sub(1, #wanted) == wanted
    end
    if fits then
      chosen = a
      break
    end
  end
  if not chosen then
    return fail('no code action titled `' .. wanted .. '…` among ' .. vim.inspect(actions))
  end
  record('action.title', chosen.title)
  record('action.kind', chosen.kind)
  record('action.preferred', chosen.isPreferred == true)
  vim.lsp.util.apply_workspace_edit(chosen.edit, client.offset_encoding or 'utf-16')

  if not vim.wait(60000, function() return #vim.diagnostic.get(bufnr) == 0 end, 50) then
    return fail('still ' .. #vim.diagnostic.get(bufnr) .. ' diagnostics 60 s after the code action')
  end
  record('after', #vim.diagnostic.get(bufnr))
  vim.cmd('write')
  record('saved', 'yes')
  vim.lsp.stop_client(client_id)
  finish(0)
end)
if not ok then
  fail(tostring(err))
end
