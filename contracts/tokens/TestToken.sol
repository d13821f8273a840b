// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// ERC-20 test token. The sandbox places its runtime code at a catalog address (anvil_setCode), so no constructor
/// runs: `initialize` sets name, symbol, decimals and the minter once. Only the minter mints.
/// An allowance of type(uint256).max is never decreased.
contract TestToken {
    string public name;
    string public symbol;
    uint8 public decimals;
    address public minter;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    error AlreadyInitialized();
    error NotMinter();
    error InsufficientBalance(address account, uint256 balance, uint256 needed);
    error InsufficientAllowance(address owner, address spender, uint256 allowance, uint256 needed);

    function initialize(string calldata name_, string calldata symbol_, uint8 decimals_, address minter_) external {
        if (minter != address(0) || minter_ == address(0)) revert AlreadyInitialized();
        _init(name_, symbol_, decimals_, minter_);
    }

    /// For tokens derived from this one that are deployed with a constructor (contracts/test/).
    function _init(string memory name_, string memory symbol_, uint8 decimals_, address minter_) internal {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        minter = minter_;
    }

    function mint(address to, uint256 amount) public {
        if (msg.sender != minter) revert NotMinter();
        totalSupply += amount;
        unchecked {
            balanceOf[to] += amount;
        }
        emit Transfer(address(0), to, amount);
    }

    function mintBatch(address[] calldata to, uint256[] calldata amounts) external {
        for (uint256 k = 0; k < to.length; k++) mint(to[k], amounts[k]);
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        _transfer(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            if (allowed < amount) revert InsufficientAllowance(from, msg.sender, allowed, amount);
            unchecked {
                allowance[from][msg.sender] = allowed - amount;
            }
        }
        _transfer(from, to, amount);
        return true;
    }

    function _transfer(address from, address to, uint256 amount) internal virtual {
        uint256 balance = balanceOf[from];
        if (balance < amount) revert InsufficientBalance(from, balance, amount);
        unchecked {
            balanceOf[from] = balance - amount;
            balanceOf[to] += amount;
        }
        emit Transfer(from, to, amount);
    }
}
