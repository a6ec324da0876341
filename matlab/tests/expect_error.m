% SPDX-License-Identifier: Apache-2.0
function err = expect_error(f, id, pattern)
% Calls F, which must fail with identifier ID and a message matching PATTERN.
try
  f();
catch err
  expect(strcmp(err.identifier, id), 'identifier %s, expected %s (%s)', err.identifier, id, err.message);
  if nargin > 2
    expect(~isempty(regexp(err.message, pattern, 'once')), 'message "%s" does not match "%s"', err.message, pattern);
  end
  return;
end
error('openipt:test', 'no error; expected %s', id);
end
