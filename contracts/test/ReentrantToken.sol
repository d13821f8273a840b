// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// An ERC-20 that, on transfer and transferFrom (before moving the balance), calls a configured target with
/// configured call data, on every one or only on those made by a configured contract (`trigger`, the msg.sender of the
/// transfer: e.g. the endpoint pulling a deposit): a malicious token re-entering the contract that moves it (the router's swapTokensGeneric,
/// the bridge endpoint's deposit or release...). The callback's failure is bubbled up with its revert data, so the
/// outer call fails with the re-entered contract's own error (Reentrancy). One callback at a time (a callback's own
/// transfers do not call back again). For the attack tests (test/e2e/attacks.test.ts). Deployed by the test (its
/// constructor runs); the deployer is the minter and configures the callback. An allowance of type(uint256).max is
/// never decreased.
contract ReentrantToken {
    string public name;
    string public symbol;
    uint8 public decimals;
    address public minter;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    /// The callback: `target` (0: none) called with `callData` and `value` wei of this contract's balance, on the
    /// transfers made by `trigger` (0: every transfer).
    address public target;
    address public trigger;
    bytes public callData;
    uint256 public value;
    /// How many callbacks ran (and succeeded).
    uint256 public callbacks;
    bool private inCallback;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    error NotMinter();
    error InsufficientBalance(address account, uint256 balance, uint256 needed);
    error InsufficientAllowance(address owner, address spender, uint256 allowance, uint256 needed);

    constructor(string memory name_, string memory symbol_, uint8 decimals_) {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        minter = msg.sender;
    }

    receive() external payable {}

    function mint(address to, uint256 amount) external {
        if (msg.sender != minter) revert NotMinter();
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function setCallback(address target_, address trigger_, bytes calldata callData_, uint256 value_) external {
        if (msg.sender != minter) revert NotMinter();
        target = target_;
        trigger = trigger_;
        callData = callData_;
        value = value_;
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        _callback();
        _transfer(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        _callback();
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            if (allowed < amount) revert InsufficientAllowance(from, msg.sender, allowed, amount);
            allowance[from][msg.sender] = allowed - amount;
        }
        _transfer(from, to, amount);
        return true;
    }

    function _callback() private {
        if (target == address(0) || inCallback || (trigger != address(0) && msg.sender != trigger)) return;
        inCallback = true;
        (bool ok, bytes memory ret) = target.call{value: value}(callData);
        if (!ok) {
            assembly {
                revert(add(ret, 32), mload(ret))
            }
        }
        callbacks += 1;
        inCallback = false;
    }

    function _transfer(address from, address to, uint256 amount) internal {
        uint256 balance = balanceOf[from];
        if (balance < amount) revert InsufficientBalance(from, balance, amount);
        balanceOf[from] = balance - amount;
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
    }
}
