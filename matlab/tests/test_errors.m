% SPDX-License-Identifier: Apache-2.0
function test_errors()
% Errors are MATLAB errors with the identifier openipt:<status> and the
% library's message, which names the parameter.
A = magic(4);
expect_error(@() openipt.conv2(A, ones(2), 'bogus'), 'openipt:invalidArgument', 'shape');
expect_error(@() conv2(A, ones(2), 'bogus'), 'openipt:invalidArgument', 'shape');
expect_error(@() openipt.call('no_such_operator', A), 'openipt:notFound', 'no_such_operator');
expect_error(@() openipt.call('conv2', A, ones(2), 'nope', 1), 'openipt:invalidArgument', 'nope');
expect_error(@() openipt.call('conv2', A, ones(2), 'same'), 'openipt:invalidArgument', 'same.*''u''');
expect(isequal(size(openipt.call('conv2', A, ones(2), 'shape', 'same')), [4 4]), 'name-value after positional');
expect_error(@() openipt.call('conv2', A + 1i, ones(2)), 'openipt:unsupported', '''A''.*complex');
expect_error(@() openipt.call('conv2', sparse(A), ones(2)), 'openipt:unsupported', '''A''.*sparse');
expect_error(@() openipt.call('imcomplement', int8(A)), 'openipt:unsupported', 'int8');
expect_error(@() openipt.call('conv2', uint8(A), ones(2)), 'openipt:unsupported', '''A''.*single, double, got uint8');
expect_error(@() openipt.imgaussfilt(A, -1), 'openipt:invalidArgument', 'sigma');
expect_error(@() openipt.medfilt2(A, [3 3], 'bogus'), 'openipt:invalidArgument', 'padopt');
expect_error(@() openipt.imdilate(A, ones(3), 'full'), 'openipt:unsupported', 'imdilate');
expect_error(@() openipt.device('no_such_device'), 'openipt:notFound', 'no_such_device');
expect_error(@() openipt_mex('bogus'), 'openipt:invalidArgument', 'bogus');
expect_error(@() openipt_mex('download', struct('openipt_image', uint64(123456))), 'openipt:misuse', 'freed');
% A failed call leaves the gateway usable.
expect(isequal(openipt.imcomplement(uint8(1)), uint8(254)), 'call after errors');
end
